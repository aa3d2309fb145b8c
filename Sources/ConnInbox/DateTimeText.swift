import Foundation

/// Seed 003's `dateTime` is free text ("Today", an RFC 2822 date, ISO 8601…). This reads what
/// can be read; what cannot is kept as text and sorted by arrival.
public enum DateTimeText {
    public static func parse(_ text: String, relativeTo now: Date) -> Date? {
        // Trimmed by hand: Foundation's trimming goes through NSString, costly over 100,000 dates.
        let trimmed = String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
        switch trimmed.lowercased() {
        case "": return nil
        case "now", "just now": return now
        case "today": return now
        case "yesterday": return now.addingTimeInterval(-86_400)
        default: break
        }
        // ISO 8601 starts with a four-digit year; anything else is tried as RFC 2822 only
        // (failed parses are not free, and most dates are one or the other).
        guard trimmed.prefix(4).allSatisfy(\.isNumber), trimmed.count >= 10 else { return rfc2822(trimmed) }
        if let date = try? Date(trimmed, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) { return date }
        if let date = try? Date(trimmed, strategy: Date.ISO8601FormatStyle()) { return date }
        if let date = try? Date(trimmed, strategy: Date.ISO8601FormatStyle().year().month().day()) { return date }
        return nil
    }

    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// `[Day, ]DD Mon YYYY HH:MM[:SS] (+HHMM|GMT|UT|Z)`.
    static func rfc2822(_ text: String) -> Date? {
        var parts = text.replacingOccurrences(of: ",", with: " ").split(separator: " ").map(String.init)
        if let first = parts.first, Int(first) == nil { parts.removeFirst() }  // weekday
        guard parts.count >= 4, let day = Int(parts[0]), let month = months.firstIndex(of: parts[1].prefix(3).lowercased()),
            var year = Int(parts[2])
        else { return nil }
        if year < 100 { year += year < 50 ? 2000 : 1900 }
        let clock = parts[3].split(separator: ":").compactMap { Int($0) }
        guard clock.count >= 2 else { return nil }
        var offsetSeconds = 0
        if parts.count >= 5 {
            let zone = parts[4]
            if let sign = zone.first, sign == "+" || sign == "-", zone.count == 5, let value = Int(zone.dropFirst()) {
                offsetSeconds = (value / 100 * 3600 + value % 100 * 60) * (sign == "-" ? -1 : 1)
            } else if !["GMT", "UT", "UTC", "Z"].contains(zone.uppercased()) {
                return nil
            }
        }
        let components = DateComponents(year: year, month: month + 1, day: day, hour: clock[0], minute: clock[1], second: clock.count > 2 ? clock[2] : 0)
        return utcCalendar.date(from: components)?.addingTimeInterval(Double(-offsetSeconds))
    }

    /// Made once: building a Calendar per date was a tenth of a large fetch.
    static let utcCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        return calendar
    }()
}
