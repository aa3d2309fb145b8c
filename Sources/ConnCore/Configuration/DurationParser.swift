import Foundation

/// Parses durations such as `10`, `2.5`, `500ms`, `5s`, `2m`, `1h`, `7d` (a bare number is seconds).
///
/// Values above `maximum` are refused like any other bad value: deadlines are added to clocks and
/// converted to 64-bit nanoseconds downstream, where `1e18` seconds would trap.
public enum DurationParser {
    /// Ten years: longer than any wait, timeout or expiry a person means.
    public static let maximum = Duration.seconds(3650 * 86_400)
    /// How error messages state the range.
    public static let rangeText = "at most 3650d"

    public static func parse(_ text: String) -> Duration? {
        let trimmed = text.trimmingBlanks()
        let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600), ("d", 86400)]
        var number = trimmed
        var scale = 1.0
        for unit in units where trimmed.hasSuffix(unit.suffix) {
            number = String(trimmed.dropLast(unit.suffix.count))
            scale = unit.seconds
            break
        }
        // Decimal only: Double also reads hexadecimal ("0x10" would be 16 s), which nobody means.
        guard number.allSatisfy({ "0123456789.eE+-".contains($0) }), let value = Double(number), value.isFinite, value >= 0 else { return nil }
        let seconds = value * scale
        guard seconds <= maximum.seconds else { return nil }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    /// `duration` as `parse` reads it back exactly: the largest unit it is a whole number of
    /// (7d, 24h, 90s, 1500ms). What `conn config get` prints for a script to pass on.
    public static func text(for duration: Duration) -> String {
        let milliseconds = Int64(duration.milliseconds.rounded())
        for (suffix, size) in [("d", Int64(86_400_000)), ("h", 3_600_000), ("m", 60_000), ("s", 1000)]
        where milliseconds >= size && milliseconds % size == 0 {
            return "\(milliseconds / size)\(suffix)"
        }
        return "\(milliseconds)ms"
    }
}
