import Foundation

/// A moment's calendar date and wall-clock time in a zone (proleptic Gregorian), computed with
/// integer arithmetic: a thread of 100,000 messages formats 100,000 dates, and a DateFormatter
/// made for each (ICU loads its locale's symbols every time) took 80 µs a date.
struct CivilTime {
    var year, month, day, hour, minute, second, millisecond: Int
    /// 0 for Sunday.
    var weekday: Int
    /// Days since 1970-01-01 in the zone's wall-clock time.
    var dayNumber: Int
    /// The zone's offset from UTC at that moment.
    var offsetSeconds: Int

    static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Nil outside the years 1–9999 (and for a date that is not a number), which the callers
    /// format another way.
    init?(_ date: Date, in zone: TimeZone) {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite, seconds >= -62_135_596_800, seconds < 253_402_300_800 else { return nil }
        offsetSeconds = zone.secondsFromGMT(for: date)
        let milliseconds = Int((seconds * 1000).rounded()) + offsetSeconds * 1000
        let (days, inDay) = Self.floorDivision(milliseconds, 86_400_000)
        dayNumber = days
        hour = inDay / 3_600_000
        minute = inDay / 60_000 % 60
        second = inDay / 1000 % 60
        millisecond = inDay % 1000
        weekday = (Self.floorDivision(days + 4, 7).remainder)  // 1970-01-01 was a Thursday
        // Days to civil date (H. Hinnant's algorithm, eras of 400 years from 0000-03-01).
        let shifted = days + 719_468
        let era = Self.floorDivision(shifted, 146_097).quotient
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// "14:05".
    var hourMinute: String { Self.padded(hour, 2) + ":" + Self.padded(minute, 2) }

    static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    private static func floorDivision(_ value: Int, _ divisor: Int) -> (quotient: Int, remainder: Int) {
        let quotient = value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
        return (quotient, value - quotient * divisor)
    }
}
