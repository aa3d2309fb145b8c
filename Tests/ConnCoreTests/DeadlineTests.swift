import ConnCore
import Foundation
import Testing

/// One deadline for a whole operation: it holds whether the operation honours cancellation or not.
@Suite("Deadline")
struct DeadlineTests {
    @Test("an operation that sleeps past the deadline is cancelled; Expired comes at the deadline")
    func cancellable() async throws {
        let start = ContinuousClock.now
        await #expect(throws: Deadline.Expired.self) {
            try await Deadline.run(within: .milliseconds(200)) { try await Task.sleep(for: .seconds(30)) }
        }
        #expect(start.duration(to: .now) < .seconds(10))
    }

    @Test("an operation that ignores its cancellation does not hold the caller past the deadline")
    func ignoresCancellation() async throws {
        let start = ContinuousClock.now
        await #expect(throws: Deadline.Expired.self) {
            try await Deadline.run(within: .milliseconds(200)) {
                let end = ContinuousClock.now + .seconds(3)
                while ContinuousClock.now < end { await Task.yield(); usleep(10_000) }
            }
        }
        #expect(start.duration(to: .now) < .seconds(2))
    }

    @Test("an answer before the deadline is the answer; an error is the error")
    func answers() async throws {
        #expect(try await Deadline.run(within: .seconds(5)) { 42 } == 42)
        struct Refused: Error {}
        await #expect(throws: Refused.self) { try await Deadline.run(within: .seconds(5)) { throw Refused() } }
    }
}
