import ArgumentParser
import ConnCommandKit
import ConnCore
import ConnLive
import ConnProbe
import Foundation

/// `conn repl`: an interactive shell for conn's commands with the connection in the prompt.
public struct ReplCommand: ConnCommand {
    public static let configuration = CommandConfiguration(
        commandName: "repl",
        abstract: "An interactive shell for conn's commands, with the live connection status in the prompt.",
        discussion: HelpText.discussion(
            """
            Runs conn's commands without the `conn` prefix, in one process, on GNU readline \
            (history in $XDG_STATE_HOME/conn/history, Tab completion of commands, options, uids \
            and outbox ids). A monitor keeps checking the server (as `conn watch` does): the \
            prompt shows the state, and when the connection drops a warning is printed above \
            the line being typed — until `ack`; it shows again when the connection returns and \
            drops, or on `refresh`. What it checks: the configured server; the internet too with \
            --internet or --internet-url, and instead of the server when none is configured \
            (--no-internet: never). Also: status, connect, disconnect (the live link), stats \
            (the session's probes summed up per target, as probe --count does), help, exit [N]. Ctrl-C clears the line or stops the running command; Ctrl-D leaves. With \
            standard input not a terminal it reads commands line by line with no prompt.
            """,
            exitCodes: """
                the last command's (or exit N's); status exits 69 when the server cannot be \
                reached; 64 repl inside the REPL
                """,
            examples: [
                .init("conn repl", "An interactive session with the connection state in the prompt."),
                .init("printf 'inbox fetch\\nstatus\\n' | conn repl --json", "A script of commands, every answer as JSON."),
            ]))

    /// Set by the executable that embeds the REPL (see `ReplHost`).
    nonisolated(unsafe) public static var host: ReplHost?

    @OptionGroup(title: "Global options") public var global: GlobalOptions

    @Option(help: ArgumentHelp("How often the monitor checks while online: 500ms, 5s, 2m (more than 0).", valueName: "duration"))
    var interval: PositiveDuration = "30s"

    @Flag(name: .customLong("no-link"), help: "Start with the live link to the server off (`connect` turns it on).")
    var noLink = false

    @OptionGroup var internetChecks: InternetCheckOptions

    public init() {}

    public func run(in context: CommandContext) async throws {
        guard let host = Self.host else { throw ConnError.internalError("the REPL was started without a command host") }
        guard !CommandSession.isEmbedded else { throw ConnError.usage("already in the REPL") }
        let configuration = context.configuration
        var targets: [ProbeTarget] = []
        var link: BackEndLink?
        if let backEnd = configuration.backEnd {
            targets = [.server(backEnd)]
            link = BackEndLink(backEnd, configuration: configuration, logger: context.logger)
        }
        // Without a server, the internet stands in for it (unless --no-internet).
        let endpoints = try internetChecks.endpoints(byDefault: targets.isEmpty, configuration: configuration)
        guard !targets.isEmpty || !endpoints.isEmpty else {
            throw ConnError.usage("nothing to check: no server is configured and --no-internet was given",
                                  hint: "Give --server URL (or set CONN_SERVER), or leave out --no-internet.")
        }
        let check = try ConnectivityCheck(targets: targets, internetEndpoints: endpoints, internetRequired: internetChecks.requested || targets.isEmpty,
                                      configuration: configuration)
        // The REPL's global options apply to every command typed in it: they are handed on as
        // the CONN_* variables of the environment those commands run with.
        let inherited: [(String, String?)] = [
            ("server", global.server), ("profile", global.profile), ("config", global.config), ("timeout", global.timeout?.description),
            ("format", global.json ? "json" : global.format?.rawValue), ("color", global.color?.rawValue),
            ("utc", global.utc ? "true" : nil), ("proxy", global.proxy), ("noProxy", global.noProxy),
            ("proxyInsecure", global.proxyInsecure ? "true" : nil), ("proxyCaCert", global.proxyCaCert),
        ]
        var environment = context.environment
        for (key, value) in inherited {
            if let value { environment[ConfigKeys.environmentVariable(for: [key])] = value }
        }
        let session = ReplSession(context: context, host: host, environment: environment, check: check,
                                  interval: interval.duration, link: link, startWithLink: !noLink)
        // The exit code of `exit N` or of the last command, which need not be a sysexits code.
        context.setExitCode(await session.run())
    }
}
