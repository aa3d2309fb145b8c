/// One deadline for a whole operation (connect, TLS, headers, every byte of the body), not a
/// timeout per read that a server trickling one byte a second renews forever.
public enum Deadline {
    /// Thrown when `run` gave up on its operation.
    public struct Expired: Error, Sendable {
        public let after: Duration
    }

    /// Runs `operation`, cancelling it and throwing `Expired` once `limit` has passed. The answer
    /// does not wait for an operation that ignores its cancellation: that one is left to end on
    /// its own, so the caller's deadline holds whatever the operation does.
    public static func run<Result: Sendable>(
        within limit: Duration,
        _ operation: @escaping @Sendable () async throws -> Result
    ) async throws -> Result {
        let race = Race<Result>()
        let work = Task {
            let outcome = await Swift.Result(catching: operation)
            await race.finish(with: outcome)
        }
        let timer = Alarm(after: limit) {
            Task { await race.finish(with: .failure(Expired(after: limit))) }
        }
        let outcome = await withTaskCancellationHandler {
            await race.outcome()
        } onCancel: {
            work.cancel()
            Task { await race.finish(with: .failure(CancellationError())) }
        }
        work.cancel()
        timer.cancel()
        return try outcome.get()
    }

    /// The first of the operation, the timer or the caller's cancellation to finish decides.
    private actor Race<Value: Sendable> {
        private var result: Swift.Result<Value, any Error>?
        private var waiter: CheckedContinuation<Swift.Result<Value, any Error>, Never>?

        func finish(with outcome: Swift.Result<Value, any Error>) {
            guard result == nil else { return }
            result = outcome
            waiter?.resume(returning: outcome)
            waiter = nil
        }

        func outcome() async -> Swift.Result<Value, any Error> {
            if let result { return result }
            return await withCheckedContinuation { waiter = $0 }
        }
    }
}

extension Swift.Result where Failure == any Error {
    /// The result of an async throwing body.
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
