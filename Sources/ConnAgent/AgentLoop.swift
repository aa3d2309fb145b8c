import ConnClock
import ConnCommandKit
import ConnCore
import ConnInbox
import ConnLive
import ConnOutbox
import ConnProbe
import ConnRequest
import Foundation
import Synchronization
import Logging

/// The agent at work over one configuration: one loop over everything that can happen — the
/// live session's events (looks, link states, delivery passes, syncs), a request on the control
/// socket, a signal — so its status is kept in one place, by one task.
///
/// A SIGHUP re-read hands over to a loop over the new configuration without stopping: the live
/// session (its link, a delivery pass in flight) and the control socket go on when the re-read
/// changed nothing they depend on, and systemd hears RELOADING=1, then READY=1 — never STOPPING=1.
struct AgentLoop {
    enum Trigger: Sendable {
        case live(LiveSession.Event)
        case control(ControlCall)
        case signal(Int32)
    }

    /// A request on the control socket and where its answer goes.
    struct ControlCall: Sendable {
        var request: AgentClient.Request?
        var reply: CheckedContinuation<String, Never>
    }

    /// What outlives one loop: the process's signals, and the relays through which the live
    /// session and the control socket reach whichever loop runs.
    struct Inputs: Sendable {
        let signals: SignalRelay
        let live = Relay<LiveSession.Event>()
        let control = Relay<ControlCall>()
    }

    /// What a loop hands to the next after a re-read: the parts that need not be made again.
    struct Carried: Sendable {
        /// The session, when the new configuration asks for the same one.
        var session: LiveSession?
        /// The control socket, when it is at the same place.
        var control: AgentControlServer?
        var status: AgentStatus
    }

    /// How a run ends: stopped by a signal, or handing over to a loop over the re-read
    /// configuration (SIGHUP).
    enum Outcome {
        case stopped
        case reload(AgentLoop, Carried)
    }

    /// What the live session depends on: a re-read that changes none of it keeps the session
    /// (its link stays up, a delivery pass in flight goes on); one that changes any makes a new one.
    struct SessionKey: Equatable {
        var resources: [URL]
        var token: String?
        var timeout: Duration
        var trust: ServerTrust
        var outboxExpiry: Duration
        var databaseFile: String
        var chrony: ChronyFeed.Settings?
        var syncResources: [String]
        var cacheLimit: Int
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
    /// Sends the back end's clock to chronyd (`chronySocket:`); started with the session.
    let chrony: ChronyFeed?
    /// The last look's per-target results and when it ended, for the status.
    private let lastLook = LastLook()

    private final class LastLook: Sendable {
        private let value = Mutex<(results: [ProbeResult], at: Date)?>(nil)
        func set(_ results: [ProbeResult]) { value.withLock { $0 = (results, Date()) } }
        var current: (results: [ProbeResult]?, at: Date?) { value.withLock { ($0?.results, $0?.at) } }
    }

    /// - Parameter database: the database already open for this file (a re-read that names the
    ///   same one): opening it again and closing the old would drop this process's SQLite locks.
    init(context: CommandContext, backEnd: BackEndEndpoint, lock: AgentLock, check: ConnectivityCheck,
         interval: Duration, grace: Duration, holdLink: Bool, syncInterval: Duration, reloaded: Bool, metrics: MonitorMetrics,
         database reused: LocalDatabase? = nil) throws {
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
        let database = try reused ?? context.openDatabase(migrations: OutboxMigrations.all + InboxMigrations.all + HTTPCacheMigrations.all)
        // A database this user may read but not write opens without complaint, and every
        // delivery would then fail: find out now, with one small write (77 "read-only").
        if reused == nil { try database.setMetaValue("agent.startedAt", JSONOutput.timestamp(Date())) }
        store = OutboxStore(database: database, expiry: context.configuration.outboxExpiry, keepSent: context.configuration.outboxKeepSent,
                            token: context.configuration.outboxPauseIdentity)
        inboxDatabase = database
        // A path that is not a socket is refused here, so a re-read naming one keeps the
        // configuration in effect.
        chrony = try context.configuration.chronySocket.map { socket in
            try ChronyFeed(.init(socket: socket, maxUncertaintyMs: context.configuration.chronyMaxUncertaintyMs, interval: interval),
                           waitsForLink: holdLink, measure: ChronyFeed.measuring(context, storingIn: database))
        }
    }

    var sessionKey: SessionKey {
        let configuration = context.configuration
        return SessionKey(resources: BackEndResource.allCases.map { backEnd.url(for: $0) }, token: configuration.token,
                          timeout: configuration.timeout, trust: configuration.serverTrust, outboxExpiry: configuration.outboxExpiry,
                          databaseFile: place.databaseFile, chrony: chrony?.settings, syncResources: configuration.syncResources,
                          cacheLimit: configuration.cacheLimitBytes)
    }

    /// The live session this loop's configuration asks for; its events go to `relay`.
    private func makeSession(_ relay: Relay<LiveSession.Event>) -> LiveSession {
        let configuration = context.configuration
        var parts = LiveSession.Parts(check: check, interval: interval, grace: grace,
                                      link: holdLink ? BackEndLink(backEnd, configuration: configuration, logger: context.logger) : nil)
        parts.delivery = LiveSession.Delivery(store: store, url: backEnd.url(for: .messages))
        if syncInterval > .zero { parts.sync = LiveSession.InboxSync(url: backEnd.url(for: .inbox), database: inboxDatabase, interval: syncInterval) }
        if syncInterval > .zero, !configuration.syncResources.isEmpty {
            parts.resources = ResourceSync(urls: configuration.syncResources.compactMap(URL.init(string:)), database: inboxDatabase,
                                           limit: configuration.cacheLimitBytes)
        }
        // Each ping/pong's offset is kept, so `clock-offset --convert` uses a fresh one.
        parts.database = inboxDatabase
        parts.chrony = chrony
        parts.metrics = metrics
        parts.releasesStartupPages = !reloaded
        parts.onResults = { [lastLook] results in lastLook.set(results) }
        return LiveSession(parts, configuration: configuration, logger: context.logger) { relay.deliver($0) }
    }

    /// Runs until SIGTERM or SIGINT (`.stopped`), or until SIGHUP and `reread` gives the loop
    /// to go on with (`.reload`); a `reread` that throws is reported, and this loop goes on.
    /// `carried`: what the loop before this one handed over. What to do is `AgentMachine`'s
    /// decision; this performs it.
    func run(inputs: Inputs, carried: Carried? = nil, reread: () throws -> AgentLoop) async throws -> Outcome {
        let notifier = SystemdNotifier(environment: context.environment)
        let journald = context.environment["JOURNAL_STREAM"] != nil
        var status = carried?.status ?? AgentStatus(pid: getpid(), startedAt: Date(), databaseFile: place.databaseFile,
                                                    server: backEnd.baseURL.absoluteString)
        status.databaseFile = place.databaseFile
        status.server = backEnd.baseURL.absoluteString
        if carried?.session == nil {
            // A new session reports its own baseline and link states.
            status.network = nil
            status.connectionState = nil
        }
        var machine = AgentMachine(status: status, reloaded: reloaded)
        let (triggers, continuation) = AsyncStream<Trigger>.makeStream()

        // Signals: stop on SIGTERM/SIGINT; SIGHUP is answered in the loop. What came while no
        // loop listened (during a hand-over) comes first.
        inputs.signals.listen { continuation.yield(.signal($0)) }
        inputs.live.listen { continuation.yield(.live($0)) }
        inputs.control.listen { continuation.yield(.control($0)) }
        defer {
            inputs.signals.listen(nil)
            inputs.live.listen(nil)
            inputs.control.listen(nil)
        }

        let session = carried?.session ?? makeSession(inputs.live)
        let controlRelay = inputs.control
        let control: AgentControlServer
        if let kept = carried?.control {
            control = kept
        } else {
            control = try await AgentControlServer.start(at: place) { request in
                await withCheckedContinuation { reply in controlRelay.deliver(ControlCall(request: request, reply: reply)) }
            }
        }

        var next: AgentLoop?
        /// Performs the machine's actions; the reply is the control request being answered.
        func perform(_ actions: [AgentMachine.Action], reply: CheckedContinuation<String, Never>? = nil) {
            for action in actions {
                switch action {
                case .emit(var event):
                    event.timestamped = !journald
                    try? context.printer.emitLine(event)
                case .notify(let lines):
                    notifier.notify(lines)
                case .warn(let text):
                    context.printer.warning(text)
                case .answerStatus:
                    var answer = machine.status
                    answer.outbox = outboxCounts()
                    answer.clockOffset = try? StoredOffset.load(from: inboxDatabase, for: backEnd.baseURL)
                    (answer.targets, answer.lookedAt) = lastLook.current
                    reply?.resume(returning: (try? JSONOutput.encode(answer)) ?? #"{"error":"internal"}"#)
                case .answer(let text):
                    reply?.resume(returning: text)
                case .wake(let ids):
                    session.handOver(ids)
                case .look:
                    Task { await session.refresh() }
                case .reread:
                    do {
                        next = try reread()
                        perform(machine.handle(.rereadTaken))
                    } catch {
                        let reason = StorageFailure.describe(error, path: context.configuration.paths.databaseFile) ?? CommandRunner.classify(error)
                        perform(machine.handle(.rereadRefused(
                            reason: reason.message,
                            warning: "SIGHUP: the configuration cannot be used, so the one in effect is kept: \(reason.message)" + (reason.hint.map { " \($0)" } ?? ""),
                            at: Date())))
                    }
                case .handOver, .stop:
                    break  // the loop below ends: the machine is stopping, or has the next loop
                }
            }
        }

        perform(machine.handle(.ready(at: Date())))
        for await trigger in triggers {
            switch trigger {
            case .live(let event):
                perform(machine.handle(.live(event, at: Date())))
            case .control(let call):
                perform(machine.handle(.control(call.request)), reply: call.reply)
            case .signal(let number):
                perform(machine.handle(.signal(number, at: Date(), monotonicMicroseconds: SystemdNotifier.monotonicMicroseconds())))
            }
            if machine.phase == .stopping || next != nil { break }
        }

        if let next, machine.phase == .reloading {
            // A reload: what the new configuration still needs goes on; the rest stops.
            let keepsSession = next.sessionKey == sessionKey
            let keepsControl = next.place == place
            if !keepsControl { await control.stop(at: place) }
            if !keepsSession { await session.stop() }
            return .reload(next, Carried(session: keepsSession ? session : nil, control: keepsControl ? control : nil, status: machine.status))
        }
        // Stop taking work; let the pass in flight record what its requests came to (a cancelled
        // request is a retry with the same key: delivering it again later is harmless).
        await control.stop(at: place)
        // A request that came in as the loop ended still gets its answer.
        inputs.control.listen(nil)
        continuation.finish()
        for await case .control(let call) in triggers { call.reply.resume(returning: AgentMachine.stoppingAnswer) }
        for call in inputs.control.drain() { call.reply.resume(returning: AgentMachine.stoppingAnswer) }
        await session.stop()
        perform(machine.handle(.partsStopped(at: Date())))
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
        // Messages for other servers are not this agent's to send: counted apart, by server.
        let origin = OutboxTarget(backEnd).origin
        if let elsewhere = try? store.waitingElsewhere(than: origin), !elsewhere.isEmpty {
            outbox.waitingForOtherServers = elsewhere
        }
        return outbox
    }
}
