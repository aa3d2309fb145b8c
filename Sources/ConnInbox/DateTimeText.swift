import ConnCore
import Foundation

/// Seed 003's `dateTime` is free text ("Today", an RFC 2822 date, ISO 8601…). This reads what
/// can be read; what cannot is kept as text and sorted by arrival.
///
/// The common shapes are read byte by byte with the civil-calendar arithmetic done here:
/// Foundation's parsers and Calendar were a fifth of a 100,000-message fetch. Other ISO 8601
/// forms fall back to Foundation.
public enum DateTimeText {
    /// "Today", "yesterday", "now": read as of the fetch, so their time of day is not the
    /// message's; shown as the server wrote them.
    public static func isRelativeWord(_ text: String) -> Bool {
        // The longest word is 9 bytes: a date (20 and more) is turned down without trimming.
        let trimmed = text.utf8.drop { isBlank($0) }.reversed().drop { isBlank($0) }
        guard trimmed.count <= 9 else { return false }
        let word = String(decoding: trimmed.reversed(), as: UTF8.self).lowercased()
        return ["now", "just now", "today", "yesterday"].contains(word)
    }

    public static func parse(_ text: String, relativeTo now: Date) -> Date? {
        var bytes = Array(text.utf8)
        while let last = bytes.last, isBlank(last) { bytes.removeLast() }
        let start = bytes.firstIndex { !isBlank($0) } ?? bytes.count
        if start > 0 { bytes.removeFirst(start) }
        if bytes.isEmpty { return nil }
        if bytes.count <= 9 {
            switch String(decoding: bytes, as: UTF8.self).lowercased() {
            case "now", "just now", "today": return now
            case "yesterday": return now.addingTimeInterval(-86_400)
            default: break
            }
        }
        // ISO 8601 starts with a four-digit year; anything else is tried as RFC 2822 only.
        if bytes.count >= 10, bytes[0..<4].allSatisfy(isDigit) {
            if let seconds = iso8601(bytes) { return Date(timeIntervalSince1970: seconds) }
            return JSONOutput.date(fromTimestamp: String(decoding: bytes, as: UTF8.self))
        }
        return rfc2822(bytes).map { Date(timeIntervalSince1970: $0) }
    }

    /// `YYYY-MM-DD`, or with `THH:MM[:SS[.fff]]` and `Z` / `±HH:MM` / `±HHMM`; nil for other forms.
    static func iso8601(_ bytes: [UInt8]) -> Double? {
        var reader = ByteReader(bytes[...])
        guard let year = reader.number(digits: 4), reader.skip(UInt8(ascii: "-")), let month = reader.number(digits: 2),
            reader.skip(UInt8(ascii: "-")), let day = reader.number(digits: 2)
        else { return nil }
        if reader.atEnd { return civilSeconds(year: year, month: month, day: day, hour: 0, minute: 0, second: 0) }
        guard reader.skip(UInt8(ascii: "T")) || reader.skip(UInt8(ascii: "t")) || reader.skip(UInt8(ascii: " ")),
            let hour = reader.number(digits: 2), reader.skip(UInt8(ascii: ":")), let minute = reader.number(digits: 2)
        else { return nil }
        var second = 0
        var fraction = 0.0
        if reader.skip(UInt8(ascii: ":")) {
            guard let value = reader.number(digits: 2) else { return nil }
            second = value
            if reader.skip(UInt8(ascii: ".")) || reader.skip(UInt8(ascii: ",")) {
                var scale = 0.1
                var any = false
                while let digit = reader.digit() {
                    fraction += Double(digit) * scale
                    scale /= 10
                    any = true
                }
                guard any else { return nil }
            }
        }
        guard let offset = reader.zone(allowNamed: false), reader.atEnd,
            let base = civilSeconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        else { return nil }
        return base + fraction - Double(offset)
    }

    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"].map { Array($0.utf8) }

    /// `[Day, ]DD Mon YYYY HH:MM[:SS] [(+HHMM|-HHMM|GMT|UT|UTC|Z)]`.
    static func rfc2822(_ bytes: [UInt8]) -> Double? {
        var words = bytes.split { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\t") }
        if let first = words.first, !first.allSatisfy(isDigit) { words.removeFirst() }  // weekday
        guard words.count >= 4, words.count <= 5, let day = number(words[0]),
            let month = month(named: words[1]),
            var year = number(words[2])
        else { return nil }
        if words[2].count <= 2 { year += year < 50 ? 2000 : 1900 }
        var clock = ByteReader(words[3])
        guard let hour = clock.number(maxDigits: 2), clock.skip(UInt8(ascii: ":")), let minute = clock.number(digits: 2) else { return nil }
        var second = 0
        if clock.skip(UInt8(ascii: ":")) {
            guard let value = clock.number(digits: 2) else { return nil }
            second = value
        }
        guard clock.atEnd else { return nil }
        var offset = 0
        if words.count == 5 {
            var zone = ByteReader(words[4])
            guard let value = zone.zone(allowNamed: true), zone.atEnd else { return nil }
            offset = value
        }
        return civilSeconds(year: year, month: month + 1, day: day, hour: hour, minute: minute, second: second).map { $0 - Double(offset) }
    }

    /// A month's index (0 for January) from its name's first three letters, in any case.
    private static func month(named word: ArraySlice<UInt8>) -> Int? {
        guard word.count >= 3 else { return nil }
        let start = word.startIndex
        let key = (lowercase(word[start]), lowercase(word[start + 1]), lowercase(word[start + 2]))
        return months.firstIndex { $0[0] == key.0 && $0[1] == key.1 && $0[2] == key.2 }
    }

    /// Seconds since 1970 of a UTC civil time (proleptic Gregorian; H. Hinnant's days_from_civil).
    /// Fields out of range give nil; a day past the month's end rolls over, as Calendar did.
    static func civilSeconds(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Double? {
        guard (1...12).contains(month), (1...31).contains(day), (0...24).contains(hour), (0...59).contains(minute), (0...60).contains(second) else { return nil }
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Double(days * 86_400 + hour * 3_600 + minute * 60 + second)
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    private static func lowercase(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte + 0x20 : byte }

    private static func number(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard !bytes.isEmpty, bytes.count <= 9, bytes.allSatisfy(isDigit) else { return nil }
        return bytes.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// Reads a date's fields from bytes, left to right (a slice: no copy per field).
    private struct ByteReader {
        let bytes: ArraySlice<UInt8>
        var index: Int

        init(_ bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
            index = bytes.startIndex
        }

        var atEnd: Bool { index == bytes.endIndex }

        mutating func skip(_ byte: UInt8) -> Bool {
            guard index < bytes.endIndex, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func digit() -> Int? {
            guard index < bytes.endIndex, DateTimeText.isDigit(bytes[index]) else { return nil }
            index += 1
            return Int(bytes[index - 1] - 0x30)
        }

        /// Exactly `digits` digits.
        mutating func number(digits: Int) -> Int? {
            var value = 0
            for _ in 0..<digits {
                guard let digit = digit() else { return nil }
                value = value * 10 + digit
            }
            return value
        }

        /// One to `maxDigits` digits.
        mutating func number(maxDigits: Int) -> Int? {
            guard var value = digit() else { return nil }
            for _ in 1..<maxDigits {
                guard let next = digit() else { break }
                value = value * 10 + next
            }
            return value
        }

        /// A zone's offset east of UTC in seconds: nothing or `Z` → 0, `±HH:MM`, `±HHMM`, and with
        /// `allowNamed` GMT/UT/UTC. nil when something else is there.
        mutating func zone(allowNamed: Bool) -> Int? {
            if atEnd { return 0 }
            if skip(UInt8(ascii: "Z")) || skip(UInt8(ascii: "z")) { return 0 }
            if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
                index += 1
                guard let hours = number(digits: 2) else { return nil }
                _ = skip(UInt8(ascii: ":"))
                guard let minutes = number(digits: 2), hours <= 23, minutes <= 59 else { return nil }
                return sign * (hours * 3_600 + minutes * 60)
            }
            guard allowNamed else { return nil }
            let name = String(decoding: bytes[index...], as: UTF8.self).uppercased()
            guard ["GMT", "UT", "UTC"].contains(name) else { return nil }
            index = bytes.endIndex
            return 0
        }
    }
}
