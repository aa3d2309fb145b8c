import Foundation

/// Asks `probe` every `interval` until it answers (non-nil), for up to `seconds`; its answer, or
/// nil. It asks once more after the deadline: on a loaded machine the waiting task can resume
/// after the deadline with the answer long there (the CI of 91b2387 failed seven checks so).
public func poll<Answer>(for seconds: Double, every interval: Duration,
                         _ probe: () async throws -> Answer?) async rethrows -> Answer? {
    let deadline = Date().addingTimeInterval(seconds)
    while true {
        if let answer = try await probe() { return answer }
        if Date() >= deadline { return nil }
        try? await Task.sleep(for: interval)
    }
}
