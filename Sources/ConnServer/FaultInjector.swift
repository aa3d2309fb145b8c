/// Rolls the dice for each request according to the fault plan.
struct FaultInjector: Sendable {
    let plan: FaultPlan

    enum Failure: Equatable {
        case internalError
        case unavailable(retryAfterSeconds: Int)
    }

    /// Whether to fail this request before processing it, and how.
    func failure() -> Failure? {
        guard plan.failRate > 0, Double.random(in: 0..<1) < plan.failRate else { return nil }
        return Bool.random() ? .internalError : .unavailable(retryAfterSeconds: 1)
    }

    /// Whether to close the connection instead of answering (after processing).
    func dropsResponse() -> Bool {
        plan.dropResponseRate > 0 && Double.random(in: 0..<1) < plan.dropResponseRate
    }
}
