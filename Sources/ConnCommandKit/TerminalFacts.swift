import Foundation

/// What conn knows about the terminal it runs in; injectable so tests can pretend to be one.
public struct TerminalFacts: Sendable, Equatable {
    public var standardInputIsTerminal: Bool
    public var standardOutputIsTerminal: Bool
    public var standardErrorIsTerminal: Bool
    /// Whether the locale promises UTF-8 (box-drawing characters are safe to print).
    public var isUTF8: Bool

    public init(standardInputIsTerminal: Bool, standardOutputIsTerminal: Bool, standardErrorIsTerminal: Bool, isUTF8: Bool) {
        self.standardInputIsTerminal = standardInputIsTerminal
        self.standardOutputIsTerminal = standardOutputIsTerminal
        self.standardErrorIsTerminal = standardErrorIsTerminal
        self.isUTF8 = isUTF8
    }

    /// The facts of this process.
    public static func current(environment: [String: String]) -> TerminalFacts {
        let locale = environment["LC_ALL"].flatMap { $0.isEmpty ? nil : $0 }
            ?? environment["LC_CTYPE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? environment["LANG"] ?? ""
        return TerminalFacts(
            standardInputIsTerminal: isatty(STDIN_FILENO) == 1,
            standardOutputIsTerminal: isatty(STDOUT_FILENO) == 1,
            standardErrorIsTerminal: isatty(STDERR_FILENO) == 1,
            // Standard library only: Foundation's replacingOccurrences cost every command about
            // half a millisecond of first-use runtime lookups.
            isUTF8: String(locale.uppercased().filter { $0 != "-" }).contains("UTF8"))
    }

    /// No terminal anywhere: what a script or a test sees.
    public static let none = TerminalFacts(
        standardInputIsTerminal: false, standardOutputIsTerminal: false, standardErrorIsTerminal: false, isUTF8: true)
}
