import ConnClock
import ConnCommandKit
import ConnCore
import ConnInbox
import ConnLive
import ConnOutbox
import ConnProbe
import Foundation
import Logging

/// The agent at work: one loop over everything that can happen — a look or a link state from the
/// monitor, a delivery pass, a sync, a request on the control socket, a signal — so its status
/// is kept in one place, by one task. Delivery and sync run in their own tasks: a sync never
/// delays a delivery, and neither holds up the watching.
struct AgentLoop {
    enum Trigger: Sendable {
        case live(LiveSession.Event)
        case control(AgentClient.Request?, CheckedContinuation<String, Never>)
        case signal(Int32)
    }

    /// How a run ends: stopped by a signal, or handing over to a loop over the re-read
    /// configuration (SIGHUP).
    enum Outcome {
        case stopped
        case reload(AgentLoop)
    }

    let context: CommandContext
    let backEnd: BackEndEndpoint
    let lock: AgentLock
    var place: AgentPlace { lock.place }
    let check: ConnectivityCheck
    let interval: Duration
    let grace: Duration
    let holdLink: Bool
    let syncInterval: Duration
    /// Started by a SIGHUP re-read rather than at start (what its first line says).
    let reloaded: Bool
    /// What --metrics-listen serves (kept across re-reads).
    let metrics: MonitorMetrics
    let store: OutboxStore
    let inboxDatabase: LocalDatabase

    init(context: CommandContext, backEnd: BackEndEndpoint, lock: AgentLock, check: ConnectivityCheck,
         interval: Duration, grace: Duration, holdLink: Bool, syncInterval: Duration, reloaded: Bool, metrics: MonitorMetrics) throws {
        self.context = context
        self.backEnd = backEnd
        self.lock = lock
        self.reloaded = reloaded
        self.metrics = metrics
        self.check = check
        self.interval = interval
        self.grace = grace
        self.holdLink = holdLink
        self.syncInterval = syncInterval
        // Opened (and migrated) once, before anything else runs: a database that cannot be used
        // ends the agent at once, with the error that says why. One connection for the outbox
        // and the inbox alike.
        let database = try context.openDatabase(migrations: OutboxMigrations.all + InboxMigrations.all)
        // A database this user may read but not write opens without complaint, and every
        // delivery would then fail: find out now, with one small write (77 "read-only").
        try database.setMetaValue("agent.startedAt", JSONOutput.timestamp(Date()))
        store = OutboxStore(database: database, expiry: context.configuration.outboxExpiry, token: context.configuration.token)
        inboxDatabase = database
    }

    /// Runs until SIGTERM or SIGINT (`.stopped`), or until SIGHUP and `reread` gives the loop
    /// to go on with (`.reload`); a `reread` that throws is reported, and this loop goes on.
    func run(signals: SignalRelay, reread: () throws -> AgentLoop) async throws -> Outcome {
        let configuration = context.configuration
        let journald = context.environment["JOURNAL_STREAM"] != nil
        let notifier = SystemdNotifier(environment: context.environment)
        var status = AgentStatus(pid: getpid(), startedAt: Date(), databaseFile: place.databaseFile, server: backEnd.baseURL.absoluteString)
        let (triggers, continuation) = AsyncStream<Trigger>.makeStream()

        func emit(_ event: AgentEvent) {
            var event = event
            event.timestamped = !journald
            event.state = event.state ?? status.network
            try? context.printer.emitLine(event)
        }

        // Signals: stop on SIGTERM/SIGINT; SIGHUP is answered in the loop.
        signals.listen { continuation.yield(.signal($0)) }
        defer { signals.listen(nil) }

        var parts = LiveSession.Parts(check: check, interval: interval, grace: grace,
                                      link: holdLink ? BackEndLink(backEnd, configuration: configuration, logger: context.logger) : nil)
        parts.delivery = LiveSession.Delivery(store: store, url: backEnd.url(for: .messages))
        if syncInterval > .zero { parts.sync = LiveSession.InboxSync(url: backEnd.url(for: .inbox), database: inboxDatabase, interval: syncInterval) }
        // Each ping/pong's offset is kept, so `clock-offset --convert` uses a fresh one.
        parts.database = inboxDatabase
        parts.metrics = metrics
        parts.releasesStartupPages = !reloaded
        let session = LiveSession(parts, configuration: configuration, logger: context.logger) { event in
            continuation.yield(.live(event))
        }
        let control = try await AgentControlServer.start(at: place) { request in
            await withCheckedContinuation { reply in continuation.yield(.control(request, reply)) }
        }

        emit(AgentEvent(type: reloaded ? .reloaded : .started,
                        detail: "pid \(status.pid), delivering the outbox of \(place.databaseFile) to \(status.server)"))
        notifier.notify("READY=1", "STATUS=Watching \(status.server)")

        var stopReason = "interrupted"
        var next: AgentLoop?
        loop: for await trigger in triggers {
            switch trigger {
            case .live(.looked(let decision, let reported)):
                status.network = reported
                if let event = decision.event {
                    emit(AgentEvent(type: event.type == .baseline ? .baseline : .change, from: event.from, state: event.state,
                                    downtimeMs: event.downtimeMs, connectionState: status.connectionState))
                    notifier.notify("STATUS=\(reported?.summary ?? "checking") — \(status.server)")
                }
            case .live(.link(let state)):
                let previous = status.connectionState
                status.connectionState = state
                if state.isNews(after: previous) { emit(AgentEvent(type: .connectionState, connectionState: state)) }
            case .live(.linkEnabled):
                continue
            case .live(.outbox(let pass)):
                let summary = WatchOutboxSummary(pass)
                status.lastDelivery = AgentStatus.Delivery(at: Date(), sent: pass.tally.sent, retrying: pass.tally.retrying,
                                                           failed: pass.tally.rejected + pass.tally.authRefused + pass.tally.expired,
                                                           error: summary.error)
                if let error = summary.error { status.lastError = error }
                emit(AgentEvent(type: .outbox, outbox: summary))
            case .live(.synced(let result)):
                status.lastSync = result
                if let error = result.error { status.lastError = "inbox sync: \(error)" }
                if !result.ok || !result.notModified { emit(AgentEvent(type: .sync, sync: result)) }
            case .control(let request, let reply):
                switch request {
                case .status:
                    status.outbox = outboxCounts()
                    status.clockOffset = try? StoredOffset.load(from: inboxDatabase)
                    reply.resume(returning: (try? JSONOutput.encode(status)) ?? #"{"error":"internal"}"#)
                case .wake(let ids):
                    session.handOver(ids)
                    reply.resume(returning: #"{"ok":true}"#)
                case nil:
                    reply.resume(returning: #"{"error":"unknown request: ask status or wake"}"#)
                }
            case .signal(SIGHUP):
                do {
                    next = try reread()
                    stopReason = "SIGHUP"
                    notifier.notify("RELOADING=1", "STATUS=Reading the configuration again")
                    break loop
                } catch {
                    let reason = StorageFailure.describe(error, path: context.configuration.paths.databaseFile) ?? CommandRunner.classify(error)
                    status.lastError = "configuration not re-read: \(reason.message)"
                    context.printer.warning("SIGHUP: the configuration cannot be used, so the one in effect is kept: \(reason.message)"
                                            + (reason.hint.map { " \($0)" } ?? ""))
                    emit(AgentEvent(type: .reloadFailed, detail: reason.message))
                }
            case .signal(let number):
                stopReason = number == SIGINT ? "SIGINT" : "SIGTERM"
                break loop
            }
        }

        // Stop taking work (or hand it over, after SIGHUP); let the pass in flight record what its requests came to (a cancelled
        // request is a retry with the same key: delivering it again later is harmless).
        notifier.notify("STOPPING=1", "STATUS=Stopping (\(stopReason))")
        await control.stop(at: place)
        // A request that came in as the loop ended still gets its answer.
        continuation.finish()
        for await case .control(_, let reply) in triggers { reply.resume(returning: #"{"error":"the agent is stopping"}"#) }
        await session.stop()
        if let next { return .reload(next) }
        emit(AgentEvent(type: .stopped, detail: stopReason))
        return .stopped
    }

    private func outboxCounts() -> AgentStatus.Outbox {
        var outbox = AgentStatus.Outbox()
        if let counts = try? store.counts() {
            outbox.pending = counts[.pending] ?? 0
            outbox.sending = counts[.sending] ?? 0
            outbox.sent = counts[.sent] ?? 0
            outbox.failed = counts[.failed] ?? 0
        }
        outbox.pausedBecause = (try? store.pause())??.message
        return outbox
    }
}
