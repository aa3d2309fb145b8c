import Foundation

/// Where conn keeps its files, following the XDG base directory specification.
///
/// Everything is derived from an environment dictionary (not the process environment directly)
/// so tests can point conn at a temporary home.
public struct ConnPaths: Sendable, Equatable, Codable {
    /// `$XDG_CONFIG_HOME/conn` — the config file lives here.
    public var configDirectory: String
    /// `$XDG_DATA_HOME/conn` — the local database (outbox, inbox cache) lives here: losing it loses data.
    public var dataDirectory: String
    /// `$XDG_STATE_HOME/conn` — REPL history and other state worth keeping but not precious.
    public var stateDirectory: String
    /// `$XDG_CACHE_HOME/conn` — anything that can be rebuilt.
    public var cacheDirectory: String

    public init(environment: [String: String]) {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        // The spec says relative values are invalid and must be ignored.
        func base(_ variable: String, _ fallback: String) -> String {
            if let value = environment[variable], value.hasPrefix("/") { return value }
            return home + "/" + fallback
        }
        configDirectory = base("XDG_CONFIG_HOME", ".config") + "/conn"
        dataDirectory = base("XDG_DATA_HOME", ".local/share") + "/conn"
        stateDirectory = base("XDG_STATE_HOME", ".local/state") + "/conn"
        cacheDirectory = base("XDG_CACHE_HOME", ".cache") + "/conn"
    }

    /// The default config file, used unless `--config` or `CONN_CONFIG` names another.
    public var defaultConfigFile: String { configDirectory + "/config.yaml" }
    /// The SQLite database shared by all capabilities.
    public var databaseFile: String { dataDirectory + "/conn.sqlite" }
    /// A directory searched for `conn-NAME` plugins before PATH.
    public var pluginDirectory: String { dataDirectory + "/plugins" }
    public var historyFile: String { stateDirectory + "/history" }

    /// Creates `directory` (and parents) with owner-only permissions if it does not exist; one
    /// that cannot be created is a local I/O failure (74), wherever conn needed it. A component
    /// at a time with mkdir(2), so the error is the system's own reason ("Not a directory",
    /// "Permission denied").
    public static func ensureDirectory(_ directory: String) throws {
        func failure(_ reason: Int32) -> ConnError {
            ConnError(code: .directoryUnavailable, message: "cannot create directory \(directory): \(String(cString: strerror(reason)))",
                      hint: "Check the permissions of its parents; XDG_DATA_HOME, XDG_CONFIG_HOME and XDG_STATE_HOME choose where conn's directories go.",
                      exitStatus: .ioError)
        }
        var path = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            path += "/" + component
            if mkdir(path, 0o700) == 0 {
                chmod(path, 0o700)  // the umask may have taken bits
            } else if errno != EEXIST {
                throw failure(errno)
            }
        }
        var status = stat()
        guard stat(directory, &status) == 0 else { throw failure(errno) }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw failure(ENOTDIR) }
    }
}
