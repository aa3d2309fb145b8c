/// Probes many targets at once, at most `concurrency` at a time, and returns the results in the
/// order of the targets.
struct ProbeRunner: Sendable {
    let prober: Prober
    let concurrency: Int

    func probeAll(_ targets: [ProbeTarget]) async -> [ProbeResult] {
        let prober = prober
        return await targets.concurrentMap(limit: concurrency) { await prober.probe($0) }
    }
}
