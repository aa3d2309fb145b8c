import ArgumentParser
import ConnCommandKit
import ConnCore
import ConnInbox
import ConnLive
import ConnMetrics
import ConnOutbox
import Foundation

/// `conn agent run`: keeps one profile live until stopped — delivers the outbox whenever the
/// server is reachable, syncs the inbox, holds the link. Its parts are the ones `conn watch` and
/// `conn inbox fetch` use (ConnectivityMonitor, OutboxFlushWorker, InboxFetcher); `AgentLoop`
/// ties them together.
public struct AgentRunCommand: ConnCommand {

    public static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the agent until SIGTERM or Ctrl-C (the default of `conn agent`).",
        discussion: HelpText.discussion(
            """
            Checks the server as `conn watch` does (the same target options) and, whenever it is \
            reachable, delivers the outbox with the rules of `conn outbox flush` — at once when it \
            becomes reachable, and when `conn send` hands over a message it could not deliver. \
            Syncs the inbox (conditional fetch) every --sync-interval and after each reconnect; a \
            failed sync leaves the cache as it was. Holds the WebSocket link, which notices a \
            restarted server within about 0.5 % of its outage (while the port refuses it knocks \
            every 25–50 ms, less often as the outage lengthens), and delivery starts as soon as \
            the link is up again. Logs one line per \
            change, delivery or sync (JSON Lines with --json; no timestamps under journald). With \
            NOTIFY_SOCKET (systemd Type=notify or notify-reload) it sends READY=1 once running \
            and STOPPING=1 when stopped. SIGHUP re-reads the configuration (flags, environment \
            and file, as at start) and goes on with it without stopping (RELOADING=1, then \
            READY=1): the link and a delivery in flight go on unless the server, the token, the \
            timeout or the database changed; a configuration that cannot be used is reported and \
            the one in effect kept.

            With sync set (URLs, comma-separated), it keeps those resources fresh in conn \
            get's copies, refreshed with the inbox; a refresh that changed something or failed \
            is one resources line of the log.

            With chronySocket set (chrony.conf: refclock SOCK PATH), it feeds chronyd the back \
            end's clock: each of the link's ping/pong estimates while it is connected, else one \
            measured (the json method) each --interval in which none came. An estimate whose \
            bound is wider than chronyMaxUncertainty (100 ms) is withheld; chronyd not listening \
            is logged once and tried again at the next estimate, never a reason to stop. The log \
            says each change (sending, withheld, not listening, no estimate); the metrics count \
            every estimate (conn_chrony_samples_total) and give the last offset sent.
            """,
            exitCodes: """
                0 stopped by SIGTERM or SIGINT (an attempt in flight is recorded first); 75 an agent \
                already runs for this database; 78 no server is configured, or a setting cannot be \
                used (chronySocket names a file that is not a socket); 69, 77 or 74 the database \
                cannot be opened, is read-only, or the disk is full; 69 --metrics-listen cannot listen \
                there (the port is taken)
                """,
            examples: [
                .init("conn agent", "Run in the foreground, one line per change, delivery and sync."),
                .init("conn agent --sync-interval 1m --json", "Sync the inbox every minute; the log as JSON Lines."),
            ]))

    @OptionGroup(title: "Global options") public var global: GlobalOptions
    @OptionGroup var watched: MonitorOptions

    @Option(name: .customLong("sync-interval"),
            help: ArgumentHelp("How often to sync the inbox (a conditional fetch): 5m, 30s; 0 turns syncing off.", valueName: "duration"))
    var syncInterval: NonNegativeDuration = "5m"

    @OptionGroup var metricsListen: MetricsListenOption

    public init() {}

    public func run(in context: CommandContext) async throws {
        // What --metrics-listen serves: one for the command's life, across re-reads.
        let metrics = MonitorMetrics()
        var loop = try makeLoop(context, after: nil, metrics: metrics)
        let inputs = AgentLoop.Inputs(signals: SignalRelay([SIGINT, SIGTERM, SIGHUP]))
        // The metrics listener outlives the loops: a re-read does not reset the counters or
        // drop a scrape's connection.
        let metricsServer = try await metrics.serve(metricsListen, context: context, targets: watched.probeTargets)
        // SIGHUP: the loop asks for a loop over the file as it is now, and hands over to it only
        // when that one could be made; otherwise it goes on with what it has.
        var carried: AgentLoop.Carried?
        while case .reload(let next, let handed) = try await loop.run(inputs: inputs, carried: carried, reread: { [loop] in try rereadLoop(after: loop) }) {
            loop = next
            carried = handed
        }
        await metricsServer?.stop()
    }

    /// A loop over `context`'s configuration. After `previous` (a re-read), the lock and the
    /// open database are kept when the database is the same one; a re-read that names another
    /// database takes that database's lock first.
    private func makeLoop(_ context: CommandContext, after previous: AgentLoop?, metrics: MonitorMetrics) throws -> AgentLoop {
        let backEnd = try context.requireBackEnd()
        let place = context.agentPlace
        let same = previous.flatMap { $0.place == place ? $0 : nil }
        let lock = try same?.lock ?? AgentLock.acquire(place)
        return try AgentLoop(
            context: context, backEnd: backEnd, lock: lock, check: try watched.check(configuration: context.configuration),
            interval: watched.interval.duration, grace: watched.grace.duration, holdLink: !watched.noLink,
            syncInterval: syncInterval.duration, reloaded: previous != nil, metrics: metrics, database: same?.inboxDatabase)
    }

    /// The configuration read again (flags, environment and file, as at start), as a new loop.
    private func rereadLoop(after loop: AgentLoop) throws -> AgentLoop {
        let configuration = try ConfigurationLoader(environment: loop.context.environment).load(global.overrides)
        return try makeLoop(loop.context.replacing(configuration: configuration), after: loop, metrics: loop.metrics)
    }
}
