import ConnClock
import ConnCore
import ConnLive
import ConnOutbox
import Foundation
import Logging
import Synchronization

/// A live session of `conn top`'s own, when no agent runs: the same monitor, link and clock as
/// `conn watch`, and the outbox counted from the database once a second. It does not deliver:
/// that is the agent's (or `conn watch --flush-outbox`'s) job.
final class LiveTopSource: TopSource {
    let name = "own monitor"
    private let session: LiveSession
    private let counter: Task<Void, Never>?

    private final class Seen: Sendable {
        let network = Mutex<NetworkState?>(nil)
        let link = Mutex<ConnectionState?>(nil)
    }

    init(parts: LiveSession.Parts, configuration: ConnConfiguration, logger: Logger, store: OutboxStore?, database: LocalDatabase?,
         server: URL?, onSample: @escaping @Sendable (TopSample) -> Void) {
        let seen = Seen()
        var parts = parts
        parts.onResults = { results in
            var sample = TopSample(at: Date())
            sample.look = (results, Date())
            sample.network = seen.network.withLock { $0 }
            sample.link = seen.link.withLock { $0 }
            onSample(sample)
        }
        session = LiveSession(parts, configuration: configuration, logger: logger) { event in
            var sample = TopSample(at: Date())
            switch event {
            case .looked(_, let reported), .path(_, let reported):
                guard let reported else { return }
                seen.network.withLock { $0 = reported }
                sample.network = reported
            case .link(let state):
                seen.link.withLock { $0 = state }
            case .linkEnabled(let enabled):
                if !enabled { seen.link.withLock { $0 = nil } }
            case .outbox, .synced, .chrony, .resourcesSynced:
                return
            }
            sample.network = seen.network.withLock { $0 }
            sample.link = seen.link.withLock { $0 }
            onSample(sample)
        }
        // The outbox and the stored clock offset, read once a second (two small queries).
        counter = store.map { store in
            Task {
                while !Task.isCancelled {
                    var sample = TopSample(at: Date())
                    if let counts = try? store.counts() {
                        sample.outbox = .init(pending: counts[.pending] ?? 0, sending: counts[.sending] ?? 0, sent: counts[.sent] ?? 0,
                                              failed: counts[.failed] ?? 0)
                    }
                    if let database, let server, let stored = try? StoredOffset.load(from: database, for: server) {
                        sample.clock = .init(offsetMs: stored.offsetMs, uncertaintyMs: stored.uncertaintyMs, measuredAt: stored.measuredAt)
                    }
                    sample.network = seen.network.withLock { $0 }
                    sample.link = seen.link.withLock { $0 }
                    onSample(sample)
                    try? await Task.sleep(for: .seconds(1))
                }
            }
        }
    }

    func probeNow() {
        let session = session
        Task { await session.refresh() }
    }

    func stop() async {
        counter?.cancel()
        await session.stop()
    }
}
