import ArgumentParser
import ConnCommandKit
import ConnCore
import ConnLive
import ConnMetrics
import ConnOutbox
import ConnProbe
import Dispatch
import Foundation

/// `conn watch`: keeps checking, reports only changes.
public struct WatchCommand: ConnCommand {
    public static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Watch connectivity and report each change as it happens (JSON Lines with --json).",
        discussion: HelpText.discussion(
            """
            Listens to the kernel (rtnetlink: links, addresses, routes) and re-probes at once on \
            a change; probes every --interval while online, and after a failure at 1 s doubling \
            up to the interval. The first line is the baseline, not a change; recovery is \
            reported on the first success; a failure once a second look confirms it (on the first \
            look when the cause is certain: a lost link or route, a closed server socket) and \
            --grace has passed. A change of the way out while the state stays (another \
            interface, a default route gained, lost or moved) is a `path` line. Each line carries the \
            state as probe reports it: state, reason, failingTarget, since, interface. With a \
            server, holds a WebSocket to it and reports its ConnectionState. Targets as in `conn \
            probe` (default: the configured server, plus the internet check, which never holds \
            the server's state: each line's `internet` says what it found, `pending` until it \
            answers, and an `internet` line says when that changes). --until STATE exits \
            0 when the state is reached; with --until, --timeout bounds the wait (75). \
            --flush-outbox delivers the outbox in the background whenever the state is online \
            (at once, ignoring conn's own backoff, when it becomes online; then as messages fall \
            due), with an `outbox` line per pass.
            """,
            exitCodes: """
                0 --until reached; 75 --until not reached within --timeout; 130 stopped by SIGINT \
                (Ctrl-C); 143 stopped by SIGTERM; 64 a bad option or target; 78 --flush-outbox \
                with no server configured; 69 --metrics-listen cannot listen there (the port is taken)
                """,
            examples: [
                .init("conn watch", "Each change of the connection as it happens, with a banner on a terminal."),
                .init("conn watch --json --until online --timeout 2m && ./deploy", "Wait for the server (at most 2 minutes), then deploy."),
                .init("conn watch --exec 'notify-send \"conn: $CONN_EVENT_TO\"'", "Run a command on every change and path event, the event in CONN_EVENT_*."),
            ]))

    @OptionGroup(title: "Global options") public var global: GlobalOptions

    @OptionGroup var watched: MonitorOptions
    @OptionGroup var metricsListen: MetricsListenOption

    @Flag(help: "Print the fuller description of the state with each change.")
    var details = false

    @Option(help: ArgumentHelp("Run this shell command on each change; the event is in CONN_EVENT_* variables and as JSON on stdin.", valueName: "command"))
    var exec: String?

    @Flag(name: .customLong("flush-outbox"), help: "Deliver the outbox whenever the server is reachable (needs a configured server).")
    var flushOutbox = false

    @Option(help: ArgumentHelp("Exit 0 once this state is reached: online, offline, serverUnreachable, portal, connected.", valueName: "state"), completion: .list(WatchCommand.untilStates))
    var until: String?

    public init() {}

    static let untilStates = NetworkStatus.allCases.map(\.rawValue) + ["connected"]

    public func validate() throws {
        if let until, !Self.untilStates.contains(until) {
            throw ValidationError("--until '\(until)' is not a state; use one of: \(Self.untilStates.joined(separator: ", ")).")
        }
    }

    enum Trigger: Sendable {
        case live(LiveSession.Event)
        case signal(Int32)
        case deadline
    }

    public func run(in context: CommandContext) async throws {
        let configuration = context.configuration
        let (triggers, continuation) = AsyncStream<Trigger>.makeStream()
        let metrics = MonitorMetrics()
        var parts = try watched.parts(configuration: configuration, logger: context.logger)
        parts.metrics = metrics
        parts.releasesStartupPages = true
        if flushOutbox {
            let backEnd = try context.requireBackEnd()
            parts.delivery = LiveSession.Delivery(store: try context.openOutbox(), url: backEnd.url(for: .messages))
        }
        let hook = exec.map { WatchHook(command: $0, printer: context.printer, environment: context.environment) }

        // Signals: a last line, then 130 or 143. Inside `conn repl` the REPL owns the signals
        // and cancels this task on Ctrl-C instead.
        let embedded = CommandSession.isEmbedded
        if !embedded {
            signal(SIGINT, SIG_IGN)
            signal(SIGTERM, SIG_IGN)
        }
        let signalSources = (embedded ? [] : [SIGINT, SIGTERM]).map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(.signal(number)) }
            source.resume()
            return source
        }
        defer { signalSources.forEach { $0.cancel() } }

        let metricsServer = try await metrics.serve(metricsListen, context: context, targets: watched.probeTargets)
        let session = LiveSession(parts, configuration: configuration, logger: context.logger) { event in
            continuation.yield(.live(event))
        }
        if !session.hasKernelNotifications {
            context.printer.note("kernel notifications (rtnetlink) are not available here: polling every \(watched.interval) instead")
        }
        var deadline: Task<Void, Never>?
        defer { deadline?.cancel() }
        if until != nil, configuration.sources["timeout"] != .defaultValue {
            let timeout = configuration.timeout
            deadline = Task {
                try? await Task.sleep(for: timeout)
                continuation.yield(.deadline)
            }
        }

        // Every way out (a reached --until, a signal, the deadline, an error) goes through here,
        // so the outbox worker records its in-flight attempts before the process ends.
        do {
            try await follow()
        } catch {
            await session.stop()
            await metricsServer?.stop()
            throw error
        }
        await session.stop()
        await metricsServer?.stop()

        func follow() async throws {
            var reported: NetworkState?
            var internet: InternetReading?
            var linkState: ConnectionState?
            // The first line is the baseline, with the verdict. The link's changes before it are
            // held and follow it, in order: the baseline carries the link's first state.
            var baselineShown = false
            var heldLinkStates: [ConnectionState] = []
            for await trigger in triggers {
                switch trigger {
                case .live(.looked(let decision, let state)):
                    reported = state
                    guard let event = decision.event else { continue }
                    internet = event.internet
                    if try show(event) { return }
                case .live(.path(let event, let state)):
                    reported = state
                    if try show(event) { return }
                case .live(.link(let state)):
                    guard baselineShown else {
                        heldLinkStates.append(state)
                        continue
                    }
                    if try showLink(state) { return }
                case .live(.linkEnabled), .live(.synced), .live(.chrony), .live(.resourcesSynced):
                    continue  // watch never switches the link off, does not sync, and feeds no chronyd
                case .signal(let number):
                    // The terminal echoed ^C where the cursor was: the last line starts on a line of its own.
                    if number == SIGINT, context.configuration.format == .text, context.terminal.standardOutputIsTerminal {
                        context.printer.write("\n")
                    }
                    try emit(event(.stopped, stopReason: number == SIGINT ? "SIGINT" : "SIGTERM"), context: context)
                    // 130/143 after a clean stop: returning lets every clean-up run first.
                    context.setExitCode(128 + number)
                    return
                case .live(.outbox(let pass)):
                    var passed = event(.outbox)
                    passed.outbox = WatchOutboxSummary(pass)
                    try emit(passed, context: context)
                case .deadline:
                    try emit(event(.stopped, stopReason: "timeout"), context: context)
                    throw ConnError.temporary(.waitTimedOut, "\(until ?? "the state") was not reached within \(TimeFormatting.duration(configuration.timeout))")
                }
            }
            /// Prints a state event and runs the hook; true when --until is reached.
            /// An event the watch itself makes, with the state and internet reading last reported.
            func event(_ type: WatchEvent.Kind, stopReason: String? = nil) -> WatchEvent {
                var event = WatchEvent(type: type, at: Date(), state: reported, connectionState: linkState, stopReason: stopReason)
                event.internet = internet
                event.linkClock = session.linkClock(for: linkState)
                return event
            }
            func show(_ event: WatchEvent) throws -> Bool {
                var event = event
                if details { event.details = event.state?.state.details }
                if event.type == .baseline, !heldLinkStates.isEmpty {
                    linkState = heldLinkStates.removeFirst()
                }
                event.connectionState = linkState
                try emit(event, context: context)
                if event.type == .change || event.type == .path { hook?.run(event) }
                if until == event.state?.state.rawValue && (event.type == .baseline || event.type == .change) { return true }
                if event.type == .baseline {
                    baselineShown = true
                    if until == "connected", linkState?.isConnected == true { return true }
                    for held in heldLinkStates where try showLink(held) { return true }
                    heldLinkStates = []
                }
                return false
            }
            /// Prints a change of the link (not a new offset alone); true when --until connected is reached.
            func showLink(_ state: ConnectionState) throws -> Bool {
                let previous = linkState
                linkState = state
                guard state.isNews(after: previous) else { return false }
                try emit(event(.connectionState), context: context)
                return until == "connected" && state.isConnected
            }

            // The stream ends only when this task is cancelled (Ctrl-C in `conn repl`).
            try emit(event(.stopped, stopReason: "interrupted"), context: context)
            throw CancellationError()
        }
    }

    /// Prints an event: JSON Lines, or a line of text with the banner on a terminal.
    func emit(_ event: WatchEvent, context: CommandContext) throws {
        try context.printer.emitLine(event)
        guard context.configuration.format == .text, context.terminal.standardOutputIsTerminal, event.type == .baseline || event.type == .change else { return }
        if let banner = event.state?.banner {
            context.printer.write(context.printer.outputStyle.red(context.printer.outputStyle.bold("▌ " + banner)))
        }
    }
}
