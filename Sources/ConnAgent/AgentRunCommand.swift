import ArgumentParser
import ConnCommandKit
import ConnCore
import ConnInbox
import ConnOutbox
import ConnWatch
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
            failed sync leaves the cache as it was. Holds the WebSocket link. Logs one line per \
            change, delivery or sync (JSON Lines with --json; no timestamps under journald). With \
            NOTIFY_SOCKET (systemd Type=notify) it sends READY=1 once running and STOPPING=1.
            """,
            exitCodes: """
                0 stopped by SIGTERM or SIGINT (an attempt in flight is recorded first); 75 an agent \
                already runs for this database; 78 no server is configured; 69, 77 or 74 the database \
                cannot be opened, is read-only, or the disk is full
                """,
            examples: [
                .init("conn agent", "Run in the foreground, one line per change, delivery and sync."),
                .init("conn agent --sync-interval 1m --json", "Sync the inbox every minute; the log as JSON Lines."),
            ]))

    @OptionGroup public var global: GlobalOptions
    @OptionGroup var watched: MonitorOptions

    @Option(name: .customLong("sync-interval"),
            help: ArgumentHelp("How often to sync the inbox (a conditional fetch): 5m, 30s; 0 turns syncing off.", valueName: "duration"))
    var syncInterval: NonNegativeDuration = "5m"

    public init() {}

    public func run(in context: CommandContext) async throws {
        let configuration = context.configuration
        let backEnd = try context.requireBackEnd()
        let place = context.agentPlace
        let lock = try AgentLock.acquire(place)
        defer { withExtendedLifetime(lock) {} }
        let loop = try AgentLoop(
            context: context, backEnd: backEnd, place: place, check: try watched.check(configuration: configuration),
            interval: watched.interval.duration, grace: watched.grace.duration, holdLink: !watched.noLink,
            syncInterval: syncInterval.duration)
        try await loop.run()
    }
}
