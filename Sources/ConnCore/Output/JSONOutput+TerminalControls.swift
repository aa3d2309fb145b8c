import Foundation

extension JSONOutput {
    /// `json` with DEL, the C1 controls, the bidi controls (U+061C, U+200E–F, U+202A–E,
    /// U+2066–9) and the line and paragraph separators written as `\u` escapes.
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
                let (scalar, length) = terminalControl(in: bytes, at: index)
                guard length > 0 else {
                    index += 1
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

    /// The scalar and its UTF-8 length when the bytes at `index` encode one that is escaped;
    /// length 0 otherwise.
    private static func terminalControl(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (UInt32, Int) {
        let lead = bytes[index]
        guard lead == 0x7F || lead == 0xC2 || lead == 0xD8 || lead == 0xE2 else { return (0, 0) }
        if lead == 0x7F { return (0x7F, 1) }
        guard index + 1 < bytes.count else { return (0, 0) }
        let second = bytes[index + 1]
        switch lead {
        case 0xC2 where (0x80...0x9F).contains(second): return (UInt32(second), 2)  // C1: U+0080–U+009F
        case 0xD8 where second == 0x9C: return (0x061C, 2)  // ARABIC LETTER MARK
        case 0xE2:
            guard index + 2 < bytes.count else { return (0, 0) }
            let third = bytes[index + 2]
            switch (second, third) {
            case (0x80, 0x8E...0x8F), (0x80, 0xA8...0xAE): return (0x2000 + UInt32(third - 0x80), 3)  // LRM, RLM, U+2028–9, U+202A–E
            case (0x81, 0xA6...0xA9): return (0x2040 + UInt32(third - 0x80), 3)  // U+2066–9
            default: return (0, 0)  // the rest of U+2000–U+207F: dashes, quotes, the ellipsis…
            }
        default: return (0, 0)
        }
    }
}
