import NIOCore
import Synchronization

/// The connections a server built on `NIOAsyncChannel` has accepted, so that stopping it closes
/// them all instead of cancelling the task that serves them. A connection the kernel accepted
/// while that task was being cancelled was never handed to `executeThenClose`, and NIO traps on
/// such a channel ("Deinited NIOAsyncWriter without calling finish()": the agent crashed on
/// SIGTERM with control requests queued, swift-nio#2637). Stopped this way, the serving loop
/// takes every connection to the end, each already closed, and then ends by itself.
///
/// With a `limit`, at most that many are kept open: a connection accepted at the limit takes
/// the place of the one that has waited longest without a request in hand (half-sent, before
/// its TLS handshake, idle between requests), so a flood of idle connections cannot keep a
/// real client out; when every one is busy answering, the new one is closed.
public final class AcceptedConnections: Sendable {
    private struct Entry {
        let channel: any Channel
        /// When it began waiting for a request (an order, not a time); nil while one is answered.
        var waitingSince: UInt64?
    }

    private struct State {
        var stopping = false
        var open: [ObjectIdentifier: Entry] = [:]
        var sequence: UInt64 = 0
        /// Connections closed at the limit since the last report, and when that was.
        var closedAtLimit = 0
        var lastReport: ContinuousClock.Instant?
    }

    private let state = Mutex(State())
    private let limit: Int
    /// Told the number of connections closed at the limit: at the first, then at most once a
    /// minute while it goes on.
    private let onLimit: (@Sendable (Int) -> Void)?

    public init(limit: Int = .max, onLimit: (@Sendable (Int) -> Void)? = nil) {
        self.limit = max(1, limit)
        self.onLimit = onLimit
    }

    /// Called from the child channel's initializer: kept until it closes; closed at once when
    /// the server is stopping; at the limit, in place of the longest waiting (or closed itself).
    public func admit(_ channel: any Channel) {
        let key = ObjectIdentifier(channel)
        let (close, report) = state.withLock { state -> ([any Channel], Int?) in
            if state.stopping { return ([channel], nil) }
            var closing: [any Channel] = []
            if state.open.count >= limit {
                let oldest = state.open.filter { $0.value.waitingSince != nil }.min { $0.value.waitingSince! < $1.value.waitingSince! }
                if let oldest {
                    state.open.removeValue(forKey: oldest.key)
                    closing.append(oldest.value.channel)
                } else {
                    closing.append(channel)
                }
                state.closedAtLimit += 1
            }
            if closing.first !== channel {
                state.sequence += 1
                state.open[key] = Entry(channel: channel, waitingSince: state.sequence)
            }
            guard !closing.isEmpty else { return (closing, nil) }
            let now = ContinuousClock.now
            if let last = state.lastReport, last.duration(to: now) < .seconds(60) { return (closing, nil) }
            state.lastReport = now
            defer { state.closedAtLimit = 0 }
            return (closing, state.closedAtLimit)
        }
        for channel in close { channel.close(promise: nil) }
        if let report { onLimit?(report) }
        guard close.first !== channel else { return }
        channel.closeFuture.whenComplete { [self] _ in _ = state.withLock { $0.open.removeValue(forKey: key) } }
    }

    /// The connection has a request in hand: not one to close for a newcomer.
    public func busy(_ channel: any Channel) {
        state.withLock { $0.open[ObjectIdentifier(channel)]?.waitingSince = nil }
    }

    /// The connection waits for its next request.
    public func waiting(_ channel: any Channel) {
        state.withLock { state in
            guard state.open[ObjectIdentifier(channel)] != nil else { return }
            state.sequence += 1
            state.open[ObjectIdentifier(channel)]?.waitingSince = state.sequence
        }
    }

    /// How many are open now.
    public var count: Int { state.withLock { $0.open.count } }

    /// Closes every connection, and every one admitted from now on.
    private func closeAll() {
        let open = state.withLock { state -> [any Channel] in
            state.stopping = true
            return state.open.values.map(\.channel)
        }
        for channel in open { channel.close(promise: nil) }
    }

    /// Stops a server: its connections closed, then its listening channel. The serving task is
    /// not cancelled nor waited for: it takes the remaining connections (each closed, so each
    /// ends at once) and ends by itself. Waiting could deadlock a caller whose own handlers answer
    /// through it (the agent's control requests go to the loop that is stopping).
    public func stop(listening: any Channel) async {
        closeAll()
        try? await listening.close()
    }
}
