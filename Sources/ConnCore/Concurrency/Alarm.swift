import NIOCore
import NIOPosix

/// A call after a delay that can be taken back, on one of the shared event loops: what a
/// deadline needs. Not a sleeping Task: a cancelled `Task.sleep` resumes at once, but its timer
/// stays queued, holding the task's memory, until the moment it would have fired — a flush of
/// 1,600 requests a second, each with a deadline, held tens of thousands of them (20 MB). An
/// event loop removes a cancelled task from its queue at once.
public struct Alarm: Sendable {
    private let scheduled: Scheduled<Void>

    /// Calls `fire` after `delay`, unless cancelled first.
    public init(after delay: Duration, _ fire: @escaping @Sendable () -> Void) {
        scheduled = MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: .nanoseconds(delay.nanoseconds), fire)
    }

    /// Takes the call back (nothing if it has already been made).
    public func cancel() {
        scheduled.cancel()
    }
}
