import Foundation

/// When to try again after a failed attempt: base·2^(attempt-1), capped. The outbox draws a
/// random delay below that ceiling (full jitter), so many clients coming back after an outage do
/// not all retry at the same instant; a single watcher of one thing (the monitor's rechecks, the
/// link's reconnects, probe --wait) waits the ceiling itself.
public struct Backoff: Sendable {
    public var base: Duration
    public var cap: Duration

    public static let standard = Backoff(base: .seconds(1), cap: .seconds(300))

    public init(base: Duration, cap: Duration) {
        self.base = base
        self.cap = cap
    }

    /// The ceiling of the random delay after `attempt` failed attempts (1 = the first).
    public func ceiling(afterAttempt attempt: Int) -> Duration {
        let exponent = min(max(attempt - 1, 0), 30)
        let scaled = base.seconds * Double(1 << exponent)
        return .milliseconds(Int64(min(scaled, cap.seconds) * 1000))
    }

    public func delay(afterAttempt attempt: Int, using generator: inout some RandomNumberGenerator) -> Duration {
        let ceiling = ceiling(afterAttempt: attempt).seconds
        return .milliseconds(Int64(Double.random(in: 0...ceiling, using: &generator) * 1000))
    }

    public func delay(afterAttempt attempt: Int) -> Duration {
        var generator = SystemRandomNumberGenerator()
        return delay(afterAttempt: attempt, using: &generator)
    }

    /// Reads a Retry-After header: delta-seconds or an HTTP date. Nil when absent or unreadable.
    public static func retryAfter(_ value: String?, now: Date) -> Duration? {
        guard let value = value?.trimmingBlanks(), !value.isEmpty else { return nil }
        if let seconds = Int(value), seconds >= 0 { return .seconds(seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        return .milliseconds(Int64(max(0, date.timeIntervalSince(now)) * 1000))
    }
}
