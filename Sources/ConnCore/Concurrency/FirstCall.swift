import Synchronization

/// True for the first caller of `claim()` only: of an answer and a deadline, the one that comes
/// first resumes a continuation; of racing connections, the first that connects wins; a warning
/// said once a process.
public final class FirstCall: Sendable {
    private let claimed = Mutex(false)

    public init() {}

    public func claim() -> Bool {
        claimed.withLock { done in
            defer { done = true }
            return !done
        }
    }
}
