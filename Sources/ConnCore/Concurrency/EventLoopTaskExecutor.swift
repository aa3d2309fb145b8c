import NIOCore
import NIOPosix

/// Runs Swift tasks on one SwiftNIO event loop: a task that prefers it (`withTaskExecutorPreference`)
/// and the channels it opens on `MultiThreadedEventLoopGroup.singleton.any()` (which is the
/// loop the caller runs on, when it runs on one) share one thread,
/// so awaiting a channel's future resumes the task on the thread that completed it instead of
/// waking a thread of Swift's pool (a futex wake and a wait for every await).
public final class EventLoopTaskExecutor: TaskExecutor {
    public let eventLoop: any EventLoop

    public init(_ eventLoop: any EventLoop = MultiThreadedEventLoopGroup.singleton.next()) {
        self.eventLoop = eventLoop
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        eventLoop.execute { job.runSynchronously(on: executor) }
    }
}
