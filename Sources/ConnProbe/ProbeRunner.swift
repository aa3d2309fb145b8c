import Synchronization
/// Probes many targets at once, at most `concurrency` at a time, and returns the results in the
/// order of the targets.
struct ProbeRunner: Sendable {
    let prober: Prober
    let concurrency: Int

    /// Up to this many targets, a command runs its look on one event loop
    /// (`EventLoopTaskExecutor`): fewer thread hand-offs than parallel work lost.
    static let oneLoopLimit = 4

    /// Probes every target, `concurrency` at once, as one run (routes looked up once per
    /// destination, kept-alive connections shared per origin and closed at the end); `done` is
    /// told how many have finished. `routes`: the look-ups of an earlier run to go on with.
    func probeAll(_ targets: [ProbeTarget], routes: RouteCache? = nil, done: (@Sendable (Int) -> Void)? = nil) async -> [ProbeResult] {
        var results: [ProbeResult] = []
        results.reserveCapacity(targets.count)
        await probeEach(targets, routes: routes, done: done) { results.append(contentsOf: $0) }
        return results
    }

    /// As `probeAll`, each result handed to `inOrder` in the targets' order as soon as the
    /// targets before it are done (`concurrentForEach`): what a report printed as it goes needs,
    /// without holding 10,000 results.
    func probeEach(_ targets: [ProbeTarget], routes: RouteCache? = nil, done: (@Sendable (Int) -> Void)? = nil,
                   inOrder: ([ProbeResult]) -> Void) async {
        let connections = ConnectionPool()
        let prober = prober.forNewRun(connections: connections, routes: routes)
        let finished = Mutex(0)
        await targets.concurrentForEach(limit: concurrency, { target in
            let result = await prober.probe(target)
            if let done { done(finished.withLock { $0 += 1; return $0 }) }
            return result
        }, inOrder: inOrder)
        await connections.closeAll()
    }
}
