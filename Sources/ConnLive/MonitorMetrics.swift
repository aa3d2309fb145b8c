import ConnCommandKit
import ConnCore
import ConnMetrics
import ConnOutbox
import ConnProbe
import Foundation
import Synchronization

/// What `--metrics-listen` serves for `conn watch` and `conn agent`: the command writes its news
/// in (each look, link state and delivery pass), a scrape reads a snapshot, with the outbox and
/// inbox counted from the database at that moment. The agent keeps one across SIGHUP re-reads,
/// so counters count from the process's start.
public final class MonitorMetrics: Sendable {
    /// Counts read from the database at a scrape (set by the loop that runs: it owns the store).
    public typealias Counter = @Sendable () -> (outbox: [String: [String: Int]]?, inboxMessages: Int?)

    public init() {}

    private let state = Mutex(MetricsSnapshot())
    private let counter = Mutex<Counter?>(nil)
    /// Whether a listener serves these: only then is a look's per-target text worth writing.
    private let serving = Mutex(false)
    /// The histograms and failure counts of every look (made when a listener starts, with its buckets).
    private let history = Mutex<ProbeHistory?>(nil)

    public func update(_ change: (inout MetricsSnapshot) -> Void) {
        state.withLock { change(&$0) }
    }

    public func count(with counter: Counter?) {
        self.counter.withLock { $0 = counter }
    }

    /// Counts the outbox by state name (and the inbox, where `inboxMessages` can) at each scrape.
    public func count(outbox store: OutboxStore, inboxMessages: (@Sendable () -> Int?)? = nil) {
        count {
            let outbox = (try? store.countsByKind()).map { kinds in
                Dictionary(uniqueKeysWithValues: kinds.map { kind, counts in
                    (kind.rawValue, Dictionary(uniqueKeysWithValues: counts.map { ($0.key.rawValue, $0.value) }))
                })
            }
            return (outbox, inboxMessages?())
        }
    }

    public func snapshot() -> MetricsSnapshot {
        var snapshot = state.withLock { $0 }
        snapshot.historyText = history.withLock { $0 }?.render() ?? ""
        if let counts = counter.withLock({ $0 })?() {
            snapshot.outbox = counts.outbox
            snapshot.inboxMessages = counts.inboxMessages
        }
        return snapshot
    }

    /// A look's decision: the state now and, for a change, one more of its (from, to).
    public func looked(_ decision: WatchEngine.Decision, reported: NetworkState?) {
        update { snapshot in
            snapshot.network = reported
            if let event = decision.event, let from = event.from, let to = event.state?.state {
                snapshot.changes[.init(from: from, to: to), default: 0] += 1
            }
        }
    }

    /// A look's per-target results, written out now so a scrape only copies them.
    public func probed(_ results: [ProbeResult]) {
        guard serving.withLock({ $0 }) else { return }  // ~700 series for 100 targets: not for nobody
        let text = MetricsExposition.targets(results)
        update { $0.targetsText = text }
        history.withLock { $0 }?.record(results)
    }

    public func delivered(_ tally: FlushTally) {
        update { snapshot in
            var deliveries = snapshot.deliveries ?? [:]
            deliveries["sent", default: 0] += tally.sent
            deliveries["retrying", default: 0] += tally.retrying
            deliveries["rejected", default: 0] += tally.rejected
            deliveries["authRefused", default: 0] += tally.authRefused
            deliveries["expired", default: 0] += tally.expired
            snapshot.deliveries = deliveries
        }
    }

    /// An estimate offered to chronyd and what became of it (sent, withheld, unavailable).
    public func chronySample(_ outcome: String, offsetMs: Double, at: Date) {
        update { snapshot in
            snapshot.chronySamples?[outcome, default: 0] += 1
            if outcome == "sent" { (snapshot.chronyOffsetMs, snapshot.chronySentAt) = (offsetMs, at) }
        }
    }

    /// Something delivers the outbox from now on: its counters exist, at 0 until a delivery.
    public func delivers() {
        update { if $0.deliveries == nil { $0.deliveries = [:] } }
    }

    /// Serves this at `address` (GET /metrics, and /probe as `probe` answers) until the server
    /// is stopped.
    public func serve(at address: ListenAddress, probe: ProbeEndpoint, access: WebConfig? = nil,
                      buckets: [Double] = ProbeHistory.defaultBuckets, onLimit: (@Sendable (Int) -> Void)? = nil) async throws -> MetricsServer {
        history.withLock { if $0 == nil { $0 = ProbeHistory(buckets: buckets) } }
        let endpoint = MetricsEndpoint(version: ConnVersion.current, probe: probe, access: access) { [self] in snapshot() }
        let server = try await MetricsServer.start(at: address, tls: access?.tls, onLimit: onLimit, respond: endpoint.respond)
        serving.withLock { $0 = true }
        return server
    }
}

extension MonitorMetrics {
    /// Serves these metrics where `options` say (nil when they name no address), and tells the
    /// person where — warning when /probe is open to more than this machine.
    public func serve(_ options: MetricsListenOption, context: CommandContext, targets: [ProbeTarget] = []) async throws -> MetricsServer? {
        guard let address = options.address else { return nil }
        let access = try options.webConfig()
        let limits = ListenerLimits.standard
        let server = try await serve(at: address, probe: options.probeEndpoint(context.configuration, targets: targets, access: access), access: access,
                                     buckets: options.buckets) { [printer = context.printer] closed in
            printer.warning("metrics: \(limits.connections) connections open, the most the listener keeps: \(closed) closed to make room (the longest waiting for a request first): a flood, or clients that hang?")
        }
        if let warning = options.openRelayWarning(access: access) { context.printer.warning(warning) }
        context.printer.note("metrics: \(access?.tls == nil ? "http" : "https")://\(server.address)/metrics"
                             + (access?.users.isEmpty == false ? " (basic authentication)" : ""))
        return server
    }
}
