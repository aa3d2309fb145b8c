/// Process exit codes, following BSD sysexits(3) so scripts can tell failures apart.
///
/// The numbers are part of conn's public contract: they are documented in docs/guide/scripting.md and the
/// man pages and must not change.
public enum ExitStatus: Int32, Sendable, Codable, CaseIterable {
    /// Success.
    case ok = 0
    /// The command line was wrong: unknown option, bad value (EX_USAGE).
    case usage = 64
    /// Input data was malformed: a file, a server answer (EX_DATAERR).
    case dataError = 65
    /// An input file does not exist or cannot be read (EX_NOINPUT).
    case noInput = 66
    /// A service, host or file that is needed is not available (EX_UNAVAILABLE).
    case unavailable = 69
    /// An internal error: a bug in conn (EX_SOFTWARE).
    case software = 70
    /// Reading or writing a local file failed: the disk is full, an I/O error (EX_IOERR).
    case ioError = 74
    /// A temporary failure; trying again later may work (EX_TEMPFAIL).
    case temporaryFailure = 75
    /// Permission or authentication was refused (EX_NOPERM).
    case permission = 77
    /// The configuration is wrong (EX_CONFIG).
    case configuration = 78

    /// The short name used in documentation and in JSON errors.
    public var name: String {
        switch self {
        case .ok: "ok"
        case .usage: "usage"
        case .dataError: "dataError"
        case .noInput: "noInput"
        case .unavailable: "unavailable"
        case .software: "software"
        case .ioError: "ioError"
        case .temporaryFailure: "temporaryFailure"
        case .permission: "permission"
        case .configuration: "configuration"
        }
    }
}
