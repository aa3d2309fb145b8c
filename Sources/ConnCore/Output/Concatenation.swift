extension Array where Element == String {
    /// The standard library's `joined(separator:)`, for arrays of strings in conn's modules: this
    /// overload is more specific than the standard library's (on `BidirectionalCollection`), so
    /// every `[String].joined` in a module that imports ConnCore compiles to it. Same result; the
    /// reason is start-up time. The standard library's version is an unspecialised generic that
    /// resolves its associated types at run time, and the first call of a process walks all of
    /// the binary's ~12,000 conformance records for it (0.25 ms; every command joins strings).
    @inlinable
    public func joined(separator: String = "") -> String {
        var text = ""
        for (index, part) in enumerated() {
            if index > 0 { text += separator }
            text += part
        }
        return text
    }
}
