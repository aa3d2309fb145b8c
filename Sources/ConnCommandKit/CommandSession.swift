/// Where a command runs: on its own as a process, or embedded in `conn repl`, which runs many
/// commands in one process. An embedded command must not end the process or take over signals:
/// the REPL cancels its task on Ctrl-C instead.
public enum CommandSession {
    @TaskLocal public static var isEmbedded = false
}
