import Foundation

/// Times as conn prints them for a person, in one place: how long ago something happened
/// (`ago`), how long something lasts or lasted (`duration`), and a moment (`moment`, local time
/// with its zone unless UTC is asked for). JSON never goes through here: it stays ISO 8601 UTC
/// and milliseconds.
public enum TimeFormatting {
    /// How long ago, as people say it: "just now", "1 second ago", "5 minutes ago", "1 day ago",
    /// "3 weeks ago", "2 months ago", "1 year ago"; a moment ahead (a skewed clock) is "in …".
    /// Each unit is used until the next one reads better, with git's boundaries: days below
    /// 14, weeks below 10, months below a year.
    public static func ago(seconds: Double) -> String {
        guard seconds.isFinite else { return "at an unknown time" }
        if abs(seconds) < 1 { return "just now" }
        let phrase = span(abs(seconds))
        return seconds > 0 ? phrase + " ago" : "in " + phrase
    }

    /// "1 second", "59 seconds", "1 minute", "23 hours", "13 days", "9 weeks", "11 months",
    /// "2 years" (whole units, rounded down; seconds ≥ 1).
    static func span(_ seconds: Double) -> String {
        let days = seconds / 86_400
        let (count, unit): (Double, String) =
            switch seconds {
            case ..<60: (seconds, "second")
            case ..<3_600: (seconds / 60, "minute")
            case ..<86_400: (seconds / 3_600, "hour")
            default:
                days < 14 ? (days, "day") : days < 70 ? (days / 7, "week") : days < 365 ? (days / 30, "month") : (days / 365, "year")
            }
        let whole = max(1, Int(count.rounded(.down)))
        return "\(whole) \(unit)\(whole == 1 ? "" : "s")"
    }

    /// A length of time in conn's duration syntax where it can be written exactly (what
    /// `--timeout`, `--interval` and the config file read back): "24h", "90m", "45s", "1.5s",
    /// "125ms", "7d". A measured one keeps three significant digits: "3.25ms", "12.3s", and
    /// above a minute whole units: "2m5s", "1h30m", "2d3h".
    public static func duration(seconds: Double) -> String {
        guard seconds.isFinite else { return "forever" }
        if seconds < 0 { return "-" + duration(seconds: -seconds) }
        if seconds == 0 { return "0s" }
        // Exactly a whole number of one unit (days only from a week on: "24h", not "1d"; seconds
        // below two minutes: "90s", but "2m5s", not "125s").
        for (unit, size) in [("d", 86_400.0), ("h", 3_600), ("m", 60), ("s", 1)] where seconds >= size {
            if unit == "d", seconds < 7 * 86_400 { continue }
            if unit == "s", seconds >= 120 { continue }
            if seconds.truncatingRemainder(dividingBy: size) == 0 { return "\(Int(seconds / size))\(unit)" }
        }
        if seconds < 1 { return significant(seconds * 1000) + "ms" }
        if seconds < 60 { return significant(seconds) + "s" }
        let whole = Int(seconds.rounded())
        switch whole {
        case ..<3_600: return compound(whole / 60, "m", whole % 60, "s")
        case ..<86_400: return compound(whole / 3_600, "h", (whole % 3_600) / 60, "m")
        default: return compound(whole / 86_400, "d", (whole % 86_400) / 3_600, "h")
        }
    }

    public static func duration(_ duration: Duration) -> String {
        self.duration(seconds: duration.seconds)
    }

    public static func duration(milliseconds: Double) -> String {
        duration(seconds: milliseconds / 1000)
    }

    /// "2m5s"; "2m" when the second part is 0.
    private static func compound(_ first: Int, _ firstUnit: String, _ second: Int, _ secondUnit: String) -> String {
        second == 0 ? "\(first)\(firstUnit)" : "\(first)\(firstUnit)\(second)\(secondUnit)"
    }

    /// Three significant digits (two decimals below 10, one below 100, none above), trailing
    /// zeros dropped: "3.25", "12.3", "125", "2". Fixed point by hand: `String(format:)` goes
    /// through Foundation's formatter, which was a measurable part of printing 1,000 probe
    /// results. Values are below 1,000 (see `duration(seconds:)`).
    private static func significant(_ value: Double) -> String {
        let decimals = value < 10 ? 2 : value < 100 ? 1 : 0
        let scale = decimals == 2 ? 100 : decimals == 1 ? 10 : 1
        let product = value * Double(scale)
        // Within an ulp of a tie the product may have rounded across it: printf's exact
        // decimal rounding decides there.
        if abs(product - product.rounded(.down) - 0.5) < 1e-9 { return stripped(String(format: "%.\(decimals)f", value)) }
        let scaled = Int(product.rounded(.toNearestOrEven))
        var text = String(scaled / scale)
        var fraction = scaled % scale
        guard fraction > 0 else { return text }
        var digits = decimals
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        let written = String(fraction)
        text += "." + String(repeating: "0", count: digits - written.count) + written
        return text
    }

    /// A fixed-point number without trailing zeros after its point.
    private static func stripped(_ number: String) -> String {
        var text = number
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text
    }

    /// The zone text shows local times in: TZ's when it names one (`Europe/Paris`, or
    /// `:Europe/Paris` as POSIX writes a zone file), else the system's. Foundation alone reads
    /// neither `:Europe/Paris` nor an unknown name, and silently shows UTC for both.
    public static let localZone: TimeZone = zone(forTZ: getenv("TZ").map { String(cString: $0) }) ?? .current

    /// The zone a TZ value names; nil for an empty or unset TZ and for one no zone has (a typo,
    /// or POSIX rules such as `JST-9`, which conn does not read).
    public static func zone(forTZ value: String?) -> TimeZone? {
        guard var name = value, !name.isEmpty else { return nil }
        if name.hasPrefix(":") { name.removeFirst() }
        return TimeZone(identifier: name)
    }

    /// The warning for a TZ that names no zone (times are then shown in UTC); nil when TZ is
    /// unset, empty or fine.
    public static func unknownZoneWarning(environment: [String: String]) -> String? {
        guard let value = environment["TZ"], !value.isEmpty, zone(forTZ: value) == nil else { return nil }
        return "TZ=\(value) names no time zone conn knows, so times are shown in UTC; set TZ to a zone name such as Europe/Paris (POSIX rules like JST-9 are not read), or use --utc"
    }

    /// A date as a list shows it, short and in the reader's zone (TZ; UTC with `--utc`): the
    /// time alone today, the weekday and time within the last six days, "3 Nov" this year,
    /// "3 Nov 2025" before (and for dates ahead beyond today).
    public static func forPeople(_ date: Date, now: Date = Date(), utc: Bool = false, timeZone: TimeZone = TimeFormatting.localZone) -> String {
        let zone = utc ? TimeZone(identifier: "UTC")! : timeZone
        guard let when = CivilTime(date, in: zone), let today = CivilTime(now, in: zone) else { return date.formatted(.iso8601) }
        let suffix = utc ? " UTC" : ""
        if when.dayNumber == today.dayNumber {
            return "\(when.hourMinute)\(suffix)"
        } else if when.dayNumber < today.dayNumber, when.dayNumber >= today.dayNumber - 6 {
            return "\(CivilTime.weekdays[when.weekday]) \(when.hourMinute)\(suffix)"
        } else if when.year == today.year {
            return "\(when.day) \(CivilTime.months[when.month - 1])"
        }
        return "\(when.day) \(CivilTime.months[when.month - 1]) \(when.year)"
    }

    /// The time of day, "14:05:09", in the local zone: the clock of a live screen (a
    /// DateFormatter per call cost `conn top` a formatter per line per redraw).
    public static func timeOfDay(_ date: Date, timeZone: TimeZone = TimeFormatting.localZone) -> String {
        guard let when = CivilTime(date, in: timeZone) else { return "--:--:--" }
        return "\(when.hourMinute):\(CivilTime.padded(when.second, 2))"
    }

    /// A moment for a person: "2026-11-23 14:05:09 +0100" in the local zone (the TZ variable's,
    /// else the system's), or "2026-11-23 13:05:09 UTC" with `utc`; with `milliseconds`,
    /// "14:05:09.123" (for events a fraction of a second apart).
    public static func moment(_ date: Date, utc: Bool = false, milliseconds: Bool = false, timeZone: TimeZone = TimeFormatting.localZone) -> String {
        guard let when = CivilTime(date, in: utc ? TimeZone(identifier: "UTC")! : timeZone) else { return date.formatted(.iso8601) }
        let fraction = milliseconds ? "." + CivilTime.padded(when.millisecond, 3) : ""
        let zone: String
        if utc {
            zone = "UTC"
        } else {
            let offset = abs(when.offsetSeconds) / 60
            zone = (when.offsetSeconds < 0 ? "-" : "+") + CivilTime.padded(offset / 60, 2) + CivilTime.padded(offset % 60, 2)
        }
        return "\(CivilTime.padded(when.year, 4))-\(CivilTime.padded(when.month, 2))-\(CivilTime.padded(when.day, 2)) "
            + "\(when.hourMinute):\(CivilTime.padded(when.second, 2))\(fraction) \(zone)"
    }
}

extension Duration {
    /// Milliseconds, with fractions.
    public var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}

extension Duration {
    /// Seconds, with fractions.
    public var seconds: Double { milliseconds / 1000 }
}
