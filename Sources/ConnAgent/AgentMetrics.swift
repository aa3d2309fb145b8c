import ConnCore
import ConnMetrics
import ConnOutbox
import ConnProbe
import ConnWatch
import Foundation
import Synchronization

/// What the agent's `--metrics-listen` serves, kept across SIGHUP re-reads (counters count
/// from the agent's start): the loop writes its news in, a scrape reads a snapshot, with the
/// outbox and inbox counted from the database at that moment.
final class AgentMetrics: Sendable {
    /// Counts read from the database at a scrape (set by the loop that runs: it owns the store).
    typealias Counter = @Sendable () -> (outbox: [String: Int]?, inboxMessages: Int?)

    private let state = Mutex(MetricsSnapshot())
    private let counter = Mutex<Counter?>(nil)

    func update(_ change: (inout MetricsSnapshot) -> Void) {
        state.withLock { change(&$0) }
    }

    func count(with counter: Counter?) {
        self.counter.withLock { $0 = counter }
    }

    func snapshot() -> MetricsSnapshot {
        var snapshot = state.withLock { $0 }
        if let counts = counter.withLock({ $0 })?() {
            snapshot.outbox = counts.outbox
            snapshot.inboxMessages = counts.inboxMessages
        }
        return snapshot
    }

    /// A look's decision: the state now and, for a change, one more of its (from, to).
    func looked(_ decision: WatchEngine.Decision, reported: NetworkState?) {
        update { snapshot in
            snapshot.network = reported
            if let event = decision.event, let from = event.from, let to = event.state?.state {
                snapshot.changes[.init(from: from, to: to), default: 0] += 1
            }
        }
    }

    func delivered(_ tally: FlushTally) {
        update { snapshot in
            snapshot.deliveries["sent", default: 0] += tally.sent
            snapshot.deliveries["retrying", default: 0] += tally.retrying
            snapshot.deliveries["rejected", default: 0] += tally.rejected
            snapshot.deliveries["authRefused", default: 0] += tally.authRefused
            snapshot.deliveries["expired", default: 0] += tally.expired
        }
    }
}
