import ConnCore
import Dispatch
import Foundation
import Testing

/// One deadline for a whole operation: it holds whether the operation honours cancellation or
/// not. The operations last two minutes; the bounds are loose (the suite's cooperative pool may
/// be busy), so what they prove is that the deadline, not the operation, ended the wait.
@Suite("Deadline")
struct DeadlineTests {
    @Test("an operation that sleeps past the deadline is cancelled; Expired comes at the deadline")
    func cancellable() async throws {
        let start = ContinuousClock.now
        await #expect(throws: Deadline.Expired.self) {
            try await Deadline.run(within: .milliseconds(200)) { try await Task.sleep(for: .seconds(120)) }
        }
        #expect(start.duration(to: .now) < .seconds(60))
    }

    @Test("an operation that ignores its cancellation does not hold the caller past the deadline")
    func ignoresCancellation() async throws {
        let start = ContinuousClock.now
        await #expect(throws: Deadline.Expired.self) {
            try await Deadline.run(within: .milliseconds(200)) {
                // Ends only when Dispatch says so, two minutes on, cancelled or not; no thread is held.
                await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                    DispatchQueue.global().asyncAfter(deadline: .now() + 120) { done.resume() }
                }
            }
        }
        #expect(start.duration(to: .now) < .seconds(60))
    }

    @Test("an answer before the deadline is the answer; an error is the error")
    func answers() async throws {
        #expect(try await Deadline.run(within: .seconds(5)) { 42 } == 42)
        struct Refused: Error {}
        await #expect(throws: Refused.self) { try await Deadline.run(within: .seconds(5)) { throw Refused() } }
    }
}
