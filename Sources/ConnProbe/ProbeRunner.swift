/// Probes many targets at once, at most `concurrency` at a time, and returns the results in the
/// order of the targets.
struct ProbeRunner: Sendable {
    let prober: Prober
    let concurrency: Int

    func probeAll(_ targets: [ProbeTarget]) async -> [ProbeResult] {
        await withTaskGroup(of: (Int, ProbeResult).self) { group in
            var results = [ProbeResult?](repeating: nil, count: targets.count)
            var next = 0
            func startNext() {
                guard next < targets.count else { return }
                let index = next
                next += 1
                group.addTask { (index, await prober.probe(targets[index])) }
            }
            for _ in 0..<min(concurrency, targets.count) { startNext() }
            while let (index, result) = await group.next() {
                results[index] = result
                startNext()
            }
            return results.compactMap { $0 }
        }
    }
}
