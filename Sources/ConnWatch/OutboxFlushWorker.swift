import ConnCore
import ConnOutbox
import Foundation
import Logging
import Synchronization

/// Delivers the outbox in the background for `conn watch --flush-outbox`, one pass at a time,
/// so a long flush never holds up the watching. Requests that arrive while a pass runs are
/// folded into one next pass.
struct OutboxFlushWorker: Sendable {
    /// What one pass did and what is left, for the `outbox` event.
    struct Pass: Sendable, Equatable {
        var tally: FlushTally
        /// Messages still pending or being sent after the pass.
        var waiting: Int
        /// When the next waiting message falls due (conn's backoff and the server's Retry-After).
        var nextDue: Date?
        /// Why the pass could not run (the database could not be read, say).
        var failure: String?
    }

    /// The pass asked for and not yet started: nil, or whether it may ignore the backoff.
    private final class PendingRequest: Sendable {
        let value = Mutex<Bool?>(nil)
    }

    private let pending = PendingRequest()
    private let wakeUps: AsyncStream<Void>.Continuation
    private let task: Task<Void, Never>

    /// Starts the worker; `report` receives each pass that attempted something, expired
    /// something, or failed.
    init(store: OutboxStore, url: URL, configuration: ConnConfiguration, logger: Logger,
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
                guard let ignoringBackoff = pending.value.withLock({ request in
                    defer { request = nil }
                    return request
                }) else { continue }
                var tally = FlushTally()
                var pass: Pass
                do {
                    try await deliverer.flushOnce(.due(ignoringBackoff: ignoringBackoff), tally: &tally)
                    pass = Pass(tally: tally, waiting: try store.waitingCount(),
                                nextDue: try store.nextWakeUp(respectingBackoff: true))
                } catch {
                    pass = Pass(tally: tally, waiting: 0, failure: "\(error)")
                }
                if pass.tally.attempted > 0 || pass.tally.expired > 0 || pass.failure != nil || pass.tally.pause != nil {
                    report(pass)
                }
            }
            try? await transport.shutdown()
        }
    }

    /// Asks for a pass. `ignoringBackoff`: the server has just become reachable, so conn's own
    /// backoff (earned while it was not) no longer applies; the server's Retry-After still does.
    func request(ignoringBackoff: Bool) {
        pending.value.withLock { $0 = ($0 ?? false) || ignoringBackoff }
        wakeUps.yield()
    }

    /// Takes no more passes, cancels the one in flight and waits for it to record what its
    /// requests came to (a cancelled request is a retry with the same key; its lease is released).
    func stop() async {
        wakeUps.finish()
        task.cancel()
        await task.value
    }
}
