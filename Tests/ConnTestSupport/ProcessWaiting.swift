import Foundation

extension Process {
    /// Waits for the process to end and returns its status, sleeping between looks: Foundation's
    /// `waitUntilExit` runs the thread's run loop, which on Linux returns at once on a thread
    /// without run-loop sources, so it spins a core for as long as the child lives — with the
    /// two threads Swift Testing has here, two such waits starved every other test. One still
    /// running after `limit` seconds is killed (SIGKILL: its status is then 9, never 0), so a
    /// stuck child fails its test instead of hanging the suite.
    @discardableResult
    public func waitForExit(killingAfter limit: Double = 120) -> Int32 {
        let deadline = Date().addingTimeInterval(limit)
        while isRunning, Date() < deadline { usleep(5_000) }
        if isRunning {
            kill(processIdentifier, SIGKILL)
            while isRunning { usleep(5_000) }
        }
        return terminationStatus
    }

    /// The same, for async code: sleeps without holding one of Swift Testing's few threads.
    @discardableResult
    public func exited(killingAfter limit: Double = 120) async -> Int32 {
        let deadline = Date().addingTimeInterval(limit)
        while isRunning, Date() < deadline { try? await Task.sleep(for: .milliseconds(5)) }
        if isRunning {
            kill(processIdentifier, SIGKILL)
            while isRunning { try? await Task.sleep(for: .milliseconds(5)) }
        }
        return terminationStatus
    }
}
