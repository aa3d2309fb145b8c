extension StringProtocol {
    /// The text's lines, cut at "\n" and at "\r\n" (empty lines kept, so line numbers hold).
    /// Splitting on the Character "\n" alone never cuts a file saved with CRLF line ends: in
    /// Swift "\r\n" is one Character, so such a file was read as a single line.
    ///
    /// Found by the newline's byte: a line feed is a Character of its own but in "\r\n" (Unicode
    /// never joins it to anything else), so this cuts where a split by Character would, at a
    /// tenth of the cost (it was a tenth of drawing a 100,000-message thread).
    public func lines() -> [SubSequence] {
        let bytes = utf8
        var lines: [SubSequence] = []
        var start = startIndex
        var index = bytes.startIndex
        // Where a "\r" stands just before `index`: a line ending "\r\n" ends there.
        var carriageReturn: Index?
        while index < bytes.endIndex {
            let byte = bytes[index]
            let next = bytes.index(after: index)
            if byte == UInt8(ascii: "\n") {
                lines.append(self[start..<(carriageReturn ?? index)])
                start = next
            }
            carriageReturn = byte == UInt8(ascii: "\r") ? index : nil
            index = next
        }
        lines.append(self[start...])
        return lines
    }
}
