import ConnCore
import ConnOutbox
import Foundation
import Logging
import Synchronization

/// Delivers the outbox in the background (`conn watch --flush-outbox`, `conn agent`), one pass at
/// a time, so a long flush never holds up the watching. Requests that arrive while a pass runs
/// are folded into one next pass. While the server is reachable it also keeps its own schedule:
/// after a pass that left messages waiting, the next pass runs when the first of them falls due
/// (conn's backoff, the server's Retry-After), at the latest after `recheck`.
public struct OutboxFlushWorker: Sendable {
    /// What one pass did and what is left, for the `outbox` event.
    public struct Pass: Sendable, Equatable {
        public var tally: FlushTally
        /// Messages still pending or being sent after the pass.
        public var waiting: Int
        /// When the next waiting message falls due (conn's backoff and the server's Retry-After).
        public var nextDue: Date?
        /// Why the pass could not run (the database could not be read, say).
        public var failure: String?
    }

    /// A pass asked for: whether it may ignore conn's backoff, and messages handed over to be
    /// tried now whatever their backoff.
    private struct Asked: Sendable {
        var ignoringBackoff = false
        var handedOver: [String] = []
    }

    /// The pass asked for and not yet started (nil: none).
    private final class PendingRequest: Sendable {
        let value = Mutex<Asked?>(nil)
        /// Whether the server is reachable now: the worker keeps its own schedule only then.
        let reachable = Mutex(false)
        /// The timer for the next due message (one at a time: a new one replaces it).
        let timer = Mutex<Alarm?>(nil)
    }

    private let pending = PendingRequest()
    private let wakeUps: AsyncStream<Void>.Continuation
    private let task: Task<Void, Never>

    /// Starts the worker; `report` receives each pass that attempted something, expired
    /// something, or failed.
    public init(store: OutboxStore, url: URL, configuration: ConnConfiguration, logger: Logger, recheck: Duration,
                report: @escaping @Sendable (Pass) -> Void) {
        let (stream, wakeUps) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        self.wakeUps = wakeUps
        let pending = self.pending
        self.task = Task {
            let transport = HTTPTransport(configuration: configuration, logger: logger)
            // One request's deadline is the configured timeout, capped so a dead server
            // cannot hold the queue for long; the next pass retries.
            let deliverer = OutboxDeliverer(store: store, transport: transport, url: url,
                                            requestTimeout: min(configuration.timeout, .seconds(10)))
            for await _ in stream {
                guard let asked = pending.value.withLock({ request in
                    defer { request = nil }
                    return request
                }) else { continue }
                var tally = FlushTally()
                var pass: Pass
                do {
                    if !asked.handedOver.isEmpty && !asked.ignoringBackoff {
                        try await deliverer.flushOnce(.ids(asked.handedOver, ignoringBackoff: true), tally: &tally)
                    }
                    try await deliverer.flushOnce(.due(ignoringBackoff: asked.ignoringBackoff), tally: &tally)
                    // Messages for other servers wait for theirs: they are not this worker's to count.
                    pass = Pass(tally: tally, waiting: try store.waitingCount(for: deliverer.target.origin),
                                nextDue: try store.nextWakeUp(respectingBackoff: true, for: deliverer.target.origin))
                } catch {
                    pass = Pass(tally: tally, waiting: 0, failure: "\(error)")
                }
                if pass.tally.attempted > 0 || pass.tally.expired > 0 || pass.failure != nil || pass.tally.pause != nil {
                    report(pass)
                }
                // Messages still waiting (and no pause): the next pass when the first falls due.
                if pass.waiting > 0, pass.tally.pause == nil, let due = pass.nextDue {
                    let delay = min(max(due.timeIntervalSinceNow, 0.05), recheck.seconds)
                    let timer = Alarm(after: .milliseconds(Int64(delay * 1000))) {
                        guard pending.reachable.withLock({ $0 }) else { return }
                        pending.value.withLock { $0 = $0 ?? Asked() }
                        wakeUps.yield()
                    }
                    pending.timer.withLock { $0?.cancel(); $0 = timer }
                }
            }
            try? await transport.shutdown()
        }
    }

    /// Asks for a pass. `ignoringBackoff`: the server has just become reachable, so conn's own
    /// backoff (earned while it was not) no longer applies; the server's Retry-After still does.
    public func request(ignoringBackoff: Bool) {
        pending.value.withLock { asked in
            var next = asked ?? Asked()
            next.ignoringBackoff = next.ignoringBackoff || ignoringBackoff
            asked = next
        }
        wakeUps.yield()
    }

    /// Messages whose sender's own attempt did not deliver them (`conn send` hands them to the
    /// agent): while the server is reachable, a pass tries them now whatever conn's backoff says
    /// (it was earned by that one attempt; the server's Retry-After still holds), then they
    /// follow the worker's schedule. While it is not, a pass as `request` asks.
    public func handOver(_ ids: [String]) {
        let reachable = pending.reachable.withLock { $0 }
        pending.value.withLock { asked in
            var next = asked ?? Asked()
            // Bounded: what does not fit waits for the worker's schedule.
            if reachable { next.handedOver += ids.prefix(max(0, 1000 - next.handedOver.count)) }
            asked = next
        }
        wakeUps.yield()
    }

    /// What the monitor saw: while the server is reachable, a pass now (ignoring conn's backoff
    /// when it has `justBecome` reachable) and the worker's own schedule after it; while it is
    /// not, no passes of the worker's own.
    public func serverReachable(_ reachable: Bool, justBecome: Bool) {
        pending.reachable.withLock { $0 = reachable }
        if reachable { request(ignoringBackoff: justBecome) }
    }

    /// Takes no more passes, cancels the one in flight and waits for it to record what its
    /// requests came to (a cancelled request is a retry with the same key; its lease is released).
    public func stop() async {
        wakeUps.finish()
        pending.timer.withLock { $0?.cancel() }
        task.cancel()
        await task.value
    }
}
