import ArgumentParser
import ConnCommandKit
import ConnCore
import ConnLive
import ConnOutbox
import Foundation

/// `conn top`: the live view. Thin: the view is `TopView`, the data a `TopSource`.
public struct TopCommand: ConnCommand {
    public static let configuration = CommandConfiguration(
        commandName: "top",
        abstract: "A full-screen live view: state, path, link, clock, outbox and each target's latency over time.",
        discussion: HelpText.discussion(
            """
            Shows, refreshed every second: the state and since when, the way out (interface, \
            kind, expensive, IPv4/IPv6), the live link and the clock offset, the outbox, each \
            target's last latency with a sparkline of its looks, the selected target's rungs, and \
            the last events. Reads the running agent's status when one runs for this database \
            (and goes on with a monitor of its own, saying so, if the agent stops answering); \
            else, with targets given, or with --no-agent, runs a monitor of its own as `conn watch` does (targets, \
            --interval, --internet and --no-link as there). Keys: q quit, p pause, r probe now, \
            up/down select a target. Redraws when the terminal is resized; gives the terminal \
            back as it was on q, Ctrl-C, SIGTERM and SIGHUP. Needs a terminal: for a stream to \
            read, use `conn watch --json`.
            """,
            exitCodes: "0 q; 130 Ctrl-C; 143 SIGTERM; 129 SIGHUP; 64 not a terminal, or inside conn repl",
            examples: [
                .init("conn top", "The agent's view, or a monitor of top's own of the configured server."),
                .init("conn top --no-agent --interval 1s https://api.example.com/health 1.1.1.1:443", "Two targets, looked at every second."),
            ]))

    @OptionGroup(title: "Global options") public var global: GlobalOptions

    @OptionGroup var watched: MonitorOptions

    @Flag(name: .customLong("no-agent"), help: "Run a monitor of top's own even when an agent runs.")
    var noAgent = false

    public init() {}

    public func run(in context: CommandContext) async throws {
        guard !CommandSession.isEmbedded else {
            throw ConnError.usage("conn top takes the whole terminal, so it cannot run inside `conn repl`", hint: "Run it from your shell.")
        }
        guard context.terminal.standardInputIsTerminal, context.terminal.standardOutputIsTerminal else {
            throw ConnError.usage("conn top needs a terminal (standard input and output)",
                                  hint: "For a stream a program can read, use `conn watch --json`.")
        }
        let view = TopView(context: context, server: context.configuration.backEnd?.baseURL.absoluteString)
        // Targets of the person's own are not the agent's: they get a monitor of top's own.
        let agent = noAgent || !watched.probeTargets.isEmpty ? nil : AgentTopSource.status(at: context.agentPlace)
        // A monitor of top's own, as `conn watch` would run with these options (made now, so a
        // bad target is a usage error before the screen is taken; started only if needed).
        let parts = try watched.parts(configuration: context.configuration, logger: context.logger)
        let code = try await view.run(agent: agent) { onSample in
            let store = try? context.openOutbox()
            var parts = parts
            parts.database = store?.database
            // A view that runs for hours: the code only start-up touched goes back after the second look.
            parts.releasesStartupPages = true
            return LiveTopSource(parts: parts, configuration: context.configuration, logger: context.logger, store: store,
                                 database: store?.database, server: context.configuration.backEnd?.baseURL, onSample: onSample)
        }
        if code != 0 { context.setExitCode(code) }
    }
}
