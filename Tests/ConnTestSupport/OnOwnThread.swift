import Foundation

/// Runs blocking `work` (a `recv` with a timeout, a `waitpid`) on a thread of its own and awaits
/// its answer, so the test run's few executor threads stay free for the other suites meanwhile.
public func onOwnThread<Answer: Sendable>(_ work: @escaping @Sendable () -> Answer) async -> Answer {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: work()) }
        thread.start()
    }
}
