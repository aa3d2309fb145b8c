import Foundation

/// The server's clock: the real one shifted by the configured skew, so `--skew-ms` is visible in
/// every time the server reports.
public struct ServerClock: Sendable {
    public let skewMS: Int64

    public init(skewMS: Int64) { self.skewMS = skewMS }

    /// Milliseconds since the Unix epoch, on the (skewed) server clock.
    public func nowMS() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000 + skewMS
    }

    /// The same with microseconds (as a fraction of the millisecond): what /time and the
    /// WebSocket's pong report, so a client's bound is not half a millisecond of rounding.
    public func nowPreciseMS() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        let microseconds = Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1000 + skewMS * 1000
        return Double(microseconds) / 1000
    }

    public func now() -> Date { Date(timeIntervalSince1970: Double(nowMS()) / 1000) }

    /// The RFC 9110 `Date` header value for now: `Sun, 22 Nov 2026 20:01:02 GMT`.
    public func httpDate() -> String { Self.httpDate(millisecondsSinceEpoch: nowMS()) }

    static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func httpDate(millisecondsSinceEpoch: Int64) -> String {
        var seconds = time_t(millisecondsSinceEpoch / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekdays[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    /// ISO 8601 with milliseconds, UTC: the `dateTime` of messages the server accepts.
    public func isoTimestamp() -> String {
        now().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt))
    }
}
