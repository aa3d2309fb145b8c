import ConnCore
import Foundation
import Testing

@Suite("time formatting: ages, durations, moments")
struct TimeFormattingTests {
    @Test("ago: 'just now', singular at 1, each unit up to its boundary", arguments: [
        (0.0, "just now"), (0.9, "just now"), (1, "1 second ago"), (1.9, "1 second ago"), (2, "2 seconds ago"), (59, "59 seconds ago"),
        (60, "1 minute ago"), (119, "1 minute ago"), (120, "2 minutes ago"), (3_599, "59 minutes ago"),
        (3_600, "1 hour ago"), (7_199, "1 hour ago"), (86_399, "23 hours ago"),
        (86_400, "1 day ago"), (172_800, "2 days ago"), (13 * 86_400, "13 days ago"),
        (14 * 86_400, "2 weeks ago"), (69 * 86_400, "9 weeks ago"),
        (70 * 86_400, "2 months ago"), (364 * 86_400, "12 months ago"),
        (365 * 86_400, "1 year ago"), (400 * 86_400, "1 year ago"), (730 * 86_400, "2 years ago"),
        (-90, "in 1 minute"), (.nan, "at an unknown time"),
    ] as [(Double, String)])
    func ago(seconds: Double, expected: String) {
        #expect(TimeFormatting.ago(seconds: seconds) == expected)
    }

    @Test("duration: exact values in the syntax conn reads back, measured ones to three digits", arguments: [
        (0.0, "0s"), (0.000_42, "0.42ms"), (0.003_25, "3.25ms"), (0.124_968_361, "125ms"), (0.125, "125ms"), (0.999_9, "1000ms"),
        (1, "1s"), (1.5, "1.5s"), (2.345, "2.35s"), (12.34, "12.3s"), (45, "45s"), (59.96, "60s"),
        (60, "1m"), (90, "90s"), (125.4, "2m5s"), (3_599, "59m59s"), (5_400, "90m"),
        (3_600, "1h"), (86_400, "24h"), (90_000, "25h"), (5 * 86_400 + 1, "5d"), (5 * 86_400 + 7_300, "5d2h"), (604_800, "7d"), (3_650 * 86_400, "3650d"),
        (-2, "-2s"), (.infinity, "forever"),
    ] as [(Double, String)])
    func duration(seconds: Double, expected: String) {
        #expect(TimeFormatting.duration(seconds: seconds) == expected)
    }

    @Test("property: a measured duration below a minute has the digits printf's %.Nf gives (ties included), trailing zeros dropped")
    func measuredDigits() {
        func reference(_ value: Double) -> String {
            let decimals = value < 10 ? 2 : value < 100 ? 1 : 0
            var text = String(format: "%.\(decimals)f", value)
            if text.contains(".") {
                while text.hasSuffix("0") { text.removeLast() }
                if text.hasSuffix(".") { text.removeLast() }
            }
            return text
        }
        var generator = SystemRandomNumberGenerator()
        // Random values, and ties at each precision (0.125 ms, 12.25 ms, 100.5 ms, 1.005 s…).
        var values: [Double] = (0..<20_000).map { _ in Double.random(in: 0.001..<999.99, using: &generator) }
        values += (0..<2_000).map { (Double($0) / 200 + 0.005) as Double }
        values += (0..<900).map { (Double($0) / 10 + 0.05) as Double }
        values += (1..<999).map { (Double($0) + 0.5) as Double }
        for milliseconds in values {
            let seconds = milliseconds / 1000
            #expect(TimeFormatting.duration(seconds: seconds) == reference(seconds * 1000) + "ms", "\(milliseconds)")
        }
        for seconds in (0..<5_000).map({ _ in Double.random(in: 1..<60, using: &generator) }) where !seconds.truncatingRemainder(dividingBy: 1).isZero {
            #expect(TimeFormatting.duration(seconds: seconds) == reference(seconds) + "s", "\(seconds)")
        }
    }

    @Test("an exact duration reads back as the same length (DurationParser)")
    func roundTrip() {
        for seconds in [0.001, 0.25, 1, 1.5, 30, 90, 600, 5_400, 3_600, 86_400, 604_800, 3_650 * 86_400.0] {
            let text = TimeFormatting.duration(seconds: seconds)
            #expect(DurationParser.parse(text)?.seconds == seconds, "\(seconds) → \(text)")
        }
    }

    @Test("DurationParser reads decimal numbers only: hexadecimal, digit groups and other scripts' digits are not durations")
    func decimalOnly() {
        for text in ["0x10", "0x1p4", "0X10s", "1_000", "٣", "nan", "inf", "-1", "5x"] {
            #expect(DurationParser.parse(text) == nil, "\(text)")
        }
        #expect(DurationParser.parse("1e3ms") == .seconds(1) && DurationParser.parse(".5s") == .milliseconds(500) && DurationParser.parse("10") == .seconds(10))
    }

    @Test("moment: local time with the zone's offset, or UTC; milliseconds when asked")
    func moment() throws {
        let date = Date(timeIntervalSince1970: 1_795_000_000.123)  // 2026-11-18T11:06:40.123Z
        let paris = try #require(TimeZone(identifier: "Europe/Paris"))
        #expect(TimeFormatting.moment(date, timeZone: paris) == "2026-11-18 12:06:40 +0100")
        #expect(TimeFormatting.moment(date, utc: true) == "2026-11-18 11:06:40 UTC")
        #expect(TimeFormatting.moment(date, utc: true, milliseconds: true) == "2026-11-18 11:06:40.123 UTC")
    }

    @Test("dates for people: the time today, the weekday this week, day and month this year, the year before; in the zone given or UTC")
    func forPeople() throws {
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        // Now: Wednesday 2026-11-25 12:00 in Tokyo (03:00 UTC).
        let now = Date(timeIntervalSince1970: 1_795_575_600)
        func shown(_ secondsBefore: Double, utc: Bool = false) -> String {
            TimeFormatting.forPeople(now.addingTimeInterval(-secondsBefore), now: now, utc: utc, timeZone: tokyo)
        }
        #expect(shown(3600) == "11:00")
        #expect(shown(2 * 86_400) == "Mon 12:00")
        #expect(shown(6 * 86_400) == "Thu 12:00")
        #expect(shown(8 * 86_400) == "17 Nov")
        #expect(shown(330 * 86_400) == "30 Dec 2025")
        #expect(shown(3600, utc: true) == "02:00 UTC")
        // 23:30 UTC on 1 January is already the 2nd in Tokyo.
        let lateNewYear = Date(timeIntervalSince1970: 1_735_774_200)
        #expect(TimeFormatting.forPeople(lateNewYear, now: now, timeZone: tokyo) == "2 Jan 2025")
        #expect(TimeFormatting.forPeople(lateNewYear, now: now, utc: true, timeZone: tokyo) == "1 Jan 2025")
    }

    @Test("moment and forPeople agree with Foundation's DateFormatter over 20,000 random dates from 1600 to 9999 in zones east, west and half-hour")
    func agreesWithDateFormatter() throws {
        var generator = SystemRandomNumberGenerator()
        for identifier in ["UTC", "Asia/Tokyo", "America/St_Johns", "Asia/Kathmandu", "America/Los_Angeles", "Europe/Paris"] {
            let zone = try #require(TimeZone(identifier: identifier))
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.calendar = Calendar(identifier: .gregorian)
            formatter.timeZone = zone
            formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS xx"
            let short = DateFormatter()
            short.locale = formatter.locale
            short.calendar = formatter.calendar
            short.timeZone = zone
            short.dateFormat = "d MMM yyyy"
            for round in 0..<3_400 {
                // Mostly near now (where zones change their rules), some anywhere in 1–9999.
                let seconds = round % 4 == 0
                    ? Double.random(in: -62_135_596_800..<253_402_300_799, using: &generator).rounded(.down)
                    : Double.random(in: 0..<2_000_000_000, using: &generator).rounded(.down) + Double(Int.random(in: 0..<1000, using: &generator)) / 1000
                let date = Date(timeIntervalSince1970: seconds)
                // Foundation's proleptic Gregorian calendar and ours part before 1582 in some versions: compare from 1600 on.
                guard seconds > -11_676_096_000 else { continue }
                #expect(TimeFormatting.moment(date, milliseconds: true, timeZone: zone) == formatter.string(from: date), "\(seconds) in \(identifier)")
                let past = Date(timeIntervalSince1970: -15_000_000_000)  // in 1494: every date compared is in another year
                #expect(TimeFormatting.forPeople(date, now: past, timeZone: zone) == short.string(from: date), "\(seconds) in \(identifier)")
            }
        }
    }
}
