import ConnCore

/// Where a command runs: on its own as a process, or embedded in `conn repl`, which runs many
/// commands in one process. An embedded command must not end the process or take over signals:
/// the REPL cancels its task on Ctrl-C instead.
public enum CommandSession {
    @TaskLocal public static var isEmbedded = false
    /// The REPL the command runs in delivers the outbox in the background: what a command queues
    /// is sent from there once the server is reachable.
    @TaskLocal public static var replDelivers = false

    /// Whether this process has said that certificates are not checked: once a run, not again
    /// for each command of a REPL, which share the process.
    static let insecureWarning = FirstCall()
}
