extension StringProtocol {
    /// The text's lines, cut at "\n" and at "\r\n" (empty lines kept, so line numbers hold).
    /// Splitting on the Character "\n" alone never cuts a file saved with CRLF line ends: in
    /// Swift "\r\n" is one Character, so such a file was read as a single line.
    public func lines() -> [SubSequence] {
        split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
    }
}
