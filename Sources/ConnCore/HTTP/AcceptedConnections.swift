import NIOCore
import Synchronization

/// The connections a server built on `NIOAsyncChannel` has accepted, so that stopping it closes
/// them all instead of cancelling the task that serves them. A connection the kernel accepted
/// while that task was being cancelled was never handed to `executeThenClose`, and NIO traps on
/// such a channel ("Deinited NIOAsyncWriter without calling finish()": the agent crashed on
/// SIGTERM with control requests queued, swift-nio#2637). Stopped this way, the serving loop
/// takes every connection to the end, each already closed, and then ends by itself.
public final class AcceptedConnections: Sendable {
    private struct State {
        var stopping = false
        var open: [ObjectIdentifier: any Channel] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    /// Called from the child channel's initializer: kept until it closes; closed at once when
    /// the server is stopping.
    public func admit(_ channel: any Channel) {
        let key = ObjectIdentifier(channel)
        let stopping = state.withLock { state -> Bool in
            if !state.stopping { state.open[key] = channel }
            return state.stopping
        }
        if stopping {
            channel.close(promise: nil)
            return
        }
        channel.closeFuture.whenComplete { [self] _ in _ = state.withLock { $0.open.removeValue(forKey: key) } }
    }

    /// Closes every connection, and every one admitted from now on.
    private func closeAll() {
        let open = state.withLock { state -> [any Channel] in
            state.stopping = true
            return Array(state.open.values)
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
