extension String {
    /// The text followed by spaces up to `width` Characters, for a column of names; longer text
    /// is left whole. Foundation's `padding(toLength:withPad:startingAt:)` counts UTF-16 units,
    /// so it misaligned (and could cut) a name with a combining mark or an emoji against widths
    /// counted in Characters, and it bridges through NSString, slow over 1,000 rows.
    public func padded(to width: Int) -> String {
        let missing = width - count
        return missing > 0 ? self + String(repeating: " ", count: missing) : self
    }
}
