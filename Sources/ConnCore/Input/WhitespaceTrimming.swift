extension Substring {
    /// The text without leading and trailing whitespace Characters (`Character.isWhitespace`:
    /// spaces, tabs, line breaks, no-break and ideographic spaces…). ASCII text, the common
    /// case, is walked byte by byte: Foundation's `trimmingCharacters(in:)` bridges through
    /// NSString, and was most of the time `probe --file` spent reading 1,000 targets.
    public func trimmingWhitespace() -> Substring {
        let utf8 = self.utf8
        guard utf8.allSatisfy({ $0 < 0x80 }) else { return trimmingWhitespaceCharacters() }
        // ASCII whitespace is 9...13 and 32; "\r\n", one Character, is whitespace byte by byte too.
        func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
        var start = utf8.startIndex, end = utf8.endIndex
        while start < end, isWhitespace(utf8[start]) { utf8.formIndex(after: &start) }
        while end > start, isWhitespace(utf8[utf8.index(before: end)]) { utf8.formIndex(before: &end) }
        return self[start..<end]
    }

    private func trimmingWhitespaceCharacters() -> Substring {
        var start = startIndex, end = endIndex
        while start < end, self[start].isWhitespace { formIndex(after: &start) }
        while end > start, self[index(before: end)].isWhitespace { formIndex(before: &end) }
        return self[start..<end]
    }
}

extension String {
    /// The text without leading and trailing whitespace Characters; see `Substring`'s.
    public func trimmingWhitespace() -> Substring { self[...].trimmingWhitespace() }
}

extension StringProtocol {
    /// The text without the spaces and tabs around it, line breaks kept: what Foundation's
    /// `trimmingCharacters(in: .whitespaces)` gives, without bridging to NSString. Start-up
    /// trims durations, proxies and lists with it: Foundation's first trim cost `config show` a
    /// quarter of a millisecond (issue 40).
    public func trimmingBlanks() -> String {
        let scalars = String(self).unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.isBlank }),
              let last = scalars.lastIndex(where: { !$0.isBlank }) else { return "" }
        return String(scalars[first...last])
    }
}

extension Unicode.Scalar {
    /// In Foundation's `.whitespaces` on Linux (CoreFoundation's set): the tab, Unicode's space
    /// separators (Zs), and the zero-width space U+200B, which Unicode no longer counts as one.
    var isBlank: Bool {
        switch value {
        case 0x09, 0x20, 0xA0, 0x1680, 0x2000...0x200B, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }
}
