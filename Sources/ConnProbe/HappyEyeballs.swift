import ConnCore
import NIOCore

/// Connecting to a name with addresses of both families as RFC 8305 says: the addresses
/// alternate by family (the resolver's first family first), the next attempt starts when the
/// one before it fails or after `attemptDelay` without an answer, and the first connection
/// wins. A black-holed IPv6 path then costs 250 ms, not the whole timeout, before IPv4 answers
/// (curl and browsers do the same).
enum HappyEyeballs {
    /// RFC 8305 §5's recommended Connection Attempt Delay.
    static let attemptDelay: Duration = .milliseconds(250)

    /// What the race found: the connection that won (its address and how long it took), and the
    /// attempts that failed before it, in the order they ended. Attempts still out when one
    /// connects are abandoned: a connection they make later is closed.
    struct Outcome {
        var winner: (address: ResolvedAddress, channel: any Channel, elapsed: Duration)?
        var failures: [(address: ResolvedAddress, result: ConnectionProber.TCPResult)]
    }

    /// The addresses in the order they are tried: alternating families, starting with the
    /// first address's (RFC 8305 §4), each family in the resolver's order.
    static func interleaved(_ addresses: [ResolvedAddress]) -> [ResolvedAddress] {
        guard let first = addresses.first else { return [] }
        let leading = addresses.filter { $0.family == first.family }
        let other = addresses.filter { $0.family != first.family }
        var order: [ResolvedAddress] = []
        for index in 0..<max(leading.count, other.count) {
            if index < leading.count { order.append(leading[index]) }
            if index < other.count { order.append(other[index]) }
        }
        return order
    }

    /// Races `connect` over `addresses` (already in the order to try, see `interleaved`).
    static func race(_ addresses: [ResolvedAddress], delay: Duration = attemptDelay,
                     connect: @escaping @Sendable (ResolvedAddress) async -> ConnectionProber.TCPResult) async -> Outcome {
        enum Event: Sendable {
            case ended(Int, ConnectionProber.TCPResult)
            case delayOver(Int)
        }
        let decision = FirstCall()
        let (events, continuation) = AsyncStream.makeStream(of: Event.self)
        var tasks: [Task<Void, Never>] = []
        var next = 0
        func launch() {
            let index = next
            next += 1
            let address = addresses[index]
            tasks.append(Task {
                let result = await connect(address)
                // The first connection wins, decided here so that only it is handed on; one made
                // after it is nobody's and is closed at once.
                if case .connected(let channel, _) = result {
                    guard decision.claim() else {
                        try? await channel.close()
                        return
                    }
                }
                continuation.yield(.ended(index, result))
            })
            if next < addresses.count {
                tasks.append(Task {
                    try? await Task.sleep(for: delay)
                    continuation.yield(.delayOver(index))
                })
            }
        }
        defer {
            continuation.finish()
            for task in tasks { task.cancel() }
        }
        var outcome = Outcome(failures: [])
        guard addresses.count > 1 else {
            // One address (most targets): no race to run.
            guard let address = addresses.first else { return outcome }
            let result = await connect(address)
            if case .connected(let channel, let elapsed) = result { outcome.winner = (address, channel, elapsed) } else { outcome.failures = [(address, result)] }
            return outcome
        }
        launch()
        var ended = 0
        for await event in events {
            switch event {
            case .delayOver(let index):
                // Only the latest attempt's delay starts another (an earlier one's is stale).
                if index == next - 1, next < addresses.count { launch() }
            case .ended(let index, let result):
                ended += 1
                if case .connected(let channel, let elapsed) = result {
                    outcome.winner = (addresses[index], channel, elapsed)
                    return outcome
                }
                outcome.failures.append((addresses[index], result))
                if next < addresses.count {
                    launch()
                } else if ended == addresses.count {
                    return outcome
                }
            }
        }
        return outcome
    }
}
