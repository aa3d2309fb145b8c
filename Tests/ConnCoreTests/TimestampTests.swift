import ConnCore
import Foundation
import Testing

@Suite("JSON timestamps")
struct TimestampTests {
    @Test("milliseconds are exact: every millisecond of a second, around the epoch and far out, round-trips")
    func exactMilliseconds() throws {
        for base: Int64 in [0, 1_795_380_311_000, -86_400_000, 253_402_300_799_000] {
            for offset: Int64 in stride(from: 0, to: 1000, by: 1) {
                let milliseconds = base + offset
                let text = JSONOutput.timestamp(Date(timeIntervalSince1970: Double(milliseconds) / 1000))
                let fraction = String(format: "%03d", ((milliseconds % 1000) + 1000) % 1000)
                #expect(text.hasSuffix(".\(fraction)Z"), "\(milliseconds) → \(text)")
                let parsed = try #require(try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
                #expect(Int64((parsed.timeIntervalSince1970 * 1000).rounded()) == milliseconds, "\(milliseconds) → \(text)")
            }
        }
        #expect(JSONOutput.timestamp(Date(timeIntervalSince1970: 1_795_380_311.432)) == "2026-11-22T20:45:11.432Z")
    }
}
