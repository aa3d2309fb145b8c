/// What `conn repl` needs from the executable that embeds it: a way to run one command line
/// in-process, and the command tree for completion. The executable (which owns the root command)
/// sets `ReplCommand.host` at start; this module cannot depend on it.
public struct ReplHost: Sendable {
    /// Runs a command line (without the leading `conn`) with the REPL's environment (the
    /// process's, plus the REPL's own flags as `CONN_*` variables), printing as the command
    /// does, and returns its exit code. Must not end the process.
    public var run: @Sendable (_ arguments: [String], _ environment: [String: String]) async -> Int32
    /// ArgumentParser's help dump of the root command (`--experimental-dump-help`).
    public var commandTreeJSON: @Sendable () -> String

    public init(run: @escaping @Sendable ([String], [String: String]) async -> Int32, commandTreeJSON: @escaping @Sendable () -> String) {
        self.run = run
        self.commandTreeJSON = commandTreeJSON
    }
}
