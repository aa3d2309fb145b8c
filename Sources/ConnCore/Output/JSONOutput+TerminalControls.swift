import Foundation

extension JSONOutput {
    /// `json` with the scalars `TerminalSanitizer.isControl` names from DEL up — DEL, the C1
    /// controls, the bidi controls, the line and paragraph separators — as `\u` escapes.
    ///
    /// JSONEncoder escapes the C0 controls only, so text from the network (a subject, a kept
    /// answer, an ETag) reached a terminal through `--json` able to reorder what it shows or, in
    /// an 8-bit terminal, to start an escape sequence (0x9B is CSI). These scalars occur only
    /// inside strings (JSON's structure is ASCII), so the escaped document parses to the same
    /// values. Works on the UTF-8 bytes: a large document without them is passed over once.
    static func escapingTerminalControls(_ json: Data) -> String {
        json.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> String in
            let bytes = raw.bindMemory(to: UInt8.self)
            var output: [UInt8] = []
            var copiedUpTo = 0
            var index = 0
            while index < bytes.count {
                let (scalar, length) = self.scalar(in: bytes, at: index)
                // Only from DEL up: the C0 controls JSONEncoder has escaped already, and the
                // newlines of pretty output are the document's own, outside any string.
                guard scalar >= 0x7F, TerminalSanitizer.isControl(scalar) else {
                    index += length
                    continue
                }
                if output.isEmpty { output.reserveCapacity(bytes.count + 64) }
                output.append(contentsOf: bytes[copiedUpTo..<index])
                output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u")])
                for shift in stride(from: 12, through: 0, by: -4) { output.append(hexDigits[Int(scalar >> UInt32(shift) & 0xF)]) }
                index += length
                copiedUpTo = index
            }
            guard copiedUpTo > 0 else { return String(decoding: bytes, as: UTF8.self) }
            output.append(contentsOf: bytes[copiedUpTo...])
            return String(decoding: output, as: UTF8.self)
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// The scalar whose UTF-8 starts at `index`, and its length (the encoder's output is valid
    /// UTF-8; a sequence cut short at the end is taken a byte at a time).
    private static func scalar(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (UInt32, Int) {
        let lead = bytes[index]
        guard lead >= 0xC0 else { return (UInt32(lead), 1) }
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        guard index + length <= bytes.count else { return (UInt32(lead), 1) }
        var value = UInt32(lead) & (0x7F >> length)
        for offset in 1..<length { value = value << 6 | UInt32(bytes[index + offset] & 0x3F) }
        return (value, length)
    }
}
