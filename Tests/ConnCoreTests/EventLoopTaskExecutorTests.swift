import NIOCore
import NIOPosix
import Testing

@testable import ConnCore

/// A task that prefers an EventLoopTaskExecutor runs on that loop's thread, and so do its child
/// tasks and what it resumes after awaiting a future the loop completes.
@Suite("the event-loop task executor")
struct EventLoopTaskExecutorTests {
    @Test("the task, its children and its resumption after a future run on the executor's loop; without the preference, not")
    func runsOnTheLoop() async throws {
        let executor = EventLoopTaskExecutor()
        let loop = executor.eventLoop
        let seen = try await withTaskExecutorPreference(executor) {
            var seen = [loop.inEventLoop]
            // A future the loop completes later: the task resumes on the same thread.
            let value = try await loop.scheduleTask(in: .milliseconds(5)) { 42 }.futureResult.get()
            seen.append(loop.inEventLoop && value == 42)
            seen += await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<3 { group.addTask { loop.inEventLoop && MultiThreadedEventLoopGroup.currentEventLoop === loop } }
                return await group.reduce(into: []) { $0.append($1) }
            }
            return seen
        }
        #expect(seen == [true, true, true, true, true], "\(seen)")
        // A plain task runs on Swift's pool, never on a loop thread.
        let plain = await Task.detached { MultiThreadedEventLoopGroup.currentEventLoop == nil }.value
        #expect(plain)
    }
}
