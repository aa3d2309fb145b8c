import ConnCore
import Foundation

extension OutboxDeliverer {
    /// Keeps delivering one message until it is sent or failed, or `deadline` passes. Waits for
    /// its backoff and the server's Retry-After between attempts, and for another deliverer's
    /// attempt when that one holds the lease. Returns the message as it stands at the end.
    public func settle(_ id: String, until deadline: ContinuousClock.Instant, onRetry: (OutboxMessage) -> Void = { _ in }) async throws -> OutboxMessage? {
        let clock = ContinuousClock()
        while true {
            guard var message = try store.message(id: id) else { return nil }
            if message.state == .sent || message.state == .failed { return message }
            let claim = try store.claim(.ids([id]), for: target, limit: 1, owner: owner, lease: lease, now: Date())
            if let claimed = claim.messages.first {
                try record([await attempt(claimed)])
                message = try store.message(id: id) ?? message
                if message.state == .sent || message.state == .failed { return message }
                onRetry(message)
            } else if claim.pause != nil {
                return message
            }
            let now = clock.now
            guard now < deadline else { return try store.message(id: id) }
            // Sleep until it is due again, but look again at least every second: another
            // deliverer may finish it first.
            let dueAt = message.state == .pending ? max(message.nextAttemptAt, message.notBefore ?? .distantPast) : Date().addingTimeInterval(0.2)
            let pause = min(max(dueAt.timeIntervalSinceNow, 0.05), 1.0, now.duration(to: deadline).seconds)
            try await Task.sleep(for: .milliseconds(Int64(pause * 1000)))
        }
    }
}
