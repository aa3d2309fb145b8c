/// The one error type that commands report to the user.
///
/// Every failure that reaches the user says what went wrong (`message`), what to do about it
/// (`hint`, optional), carries a stable machine-readable `code` for scripts, and maps to an
/// `ExitStatus`.
public struct ConnError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable camelCase identifier, e.g. `configInvalid`. Scripts may match on it.
    public var code: ErrorCode
    /// One sentence for a person: what failed and with which input.
    public var message: String
    /// What to do next, when there is something useful to say.
    public var hint: String?
    public var exitStatus: ExitStatus

    public init(code: ErrorCode, message: String, hint: String? = nil, exitStatus: ExitStatus) {
        self.code = code
        self.message = message
        self.hint = hint
        self.exitStatus = exitStatus
    }

    public var description: String {
        if let hint { return "\(message)\n\(hint)" }
        return message
    }
}

extension ConnError {
    public static func configuration(_ message: String, hint: String? = nil) -> ConnError {
        ConnError(code: .configInvalid, message: message, hint: hint, exitStatus: .configuration)
    }

    public static func usage(_ message: String, hint: String? = nil) -> ConnError {
        ConnError(code: .usage, message: message, hint: hint, exitStatus: .usage)
    }

    public static func unavailable(_ code: ErrorCode, _ message: String, hint: String? = nil) -> ConnError {
        ConnError(code: code, message: message, hint: hint, exitStatus: .unavailable)
    }

    public static func dataError(_ code: ErrorCode, _ message: String, hint: String? = nil) -> ConnError {
        ConnError(code: code, message: message, hint: hint, exitStatus: .dataError)
    }

    public static func temporary(_ code: ErrorCode, _ message: String, hint: String? = nil) -> ConnError {
        ConnError(code: code, message: message, hint: hint, exitStatus: .temporaryFailure)
    }

    public static func internalError(_ message: String) -> ConnError {
        ConnError(
            code: .internal, message: message,
            hint: "This is a bug in conn; please report it with the command you ran.",
            exitStatus: .software)
    }
}
