import ArgumentParser
import ConnCommandKit
import ConnCore

/// `conn agent`: the always-on half — `conn agent` (run) and `conn agent status`.
public struct AgentCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "agent",
        abstract: "Keep a profile live: deliver the outbox, sync the inbox, hold the link (run as a service).",
        discussion: HelpText.discussion(
            """
            `conn agent` (the same as `conn agent run`) runs until stopped. `conn agent status` asks \
            the running one what it does. One agent per database: `conn send` hands it what it could \
            not deliver at once, over a socket in $XDG_RUNTIME_DIR/conn.
            """,
            exitCodes: "those of conn agent run, which runs when no command is named",
            examples: [
                .init("conn agent", "Deliver, sync and stay linked until Ctrl-C or SIGTERM."),
                .init("conn agent status --json", "What the running agent sees and did last, for a script."),
                .init("systemctl --user enable --now conn-agent", "Run it as a systemd user service (contrib/systemd/conn-agent.service)."),
            ]),
        subcommands: [AgentRunCommand.self, AgentStatusCommand.self],
        defaultSubcommand: AgentRunCommand.self)

    public init() {}
}
