import ConnCommandKit
import Foundation
import Testing

@testable import ConnClock

@Suite("Clock filter and formats")
struct ClockFilterTests {
    /// An exchange with a true offset, one-way delays and server processing time (ms).
    func exchange(offset: Double, out: Double, back: Double, processing: Double = 0.1, at t1: Double = 1_000_000) -> ClockSample {
        let t2 = t1 + out + offset
        let t3 = t2 + processing
        return ClockSample(t1: t1, t2: t2, t3: t3, t4: t3 - offset + back)
    }

    @Test func symmetricDelaysGiveTheExactOffset() throws {
        let estimate = try #require(ClockFilter.estimate([exchange(offset: 1234, out: 3, back: 3)], resolutionMS: 0))
        #expect(abs(estimate.offsetMS - 1234) < 1e-6)
        #expect(abs(estimate.uncertaintyMS - 3) < 1e-6)  // δ/2
    }

    /// Property: whatever the asymmetry, the truth lies within the reported bound.
    @Test func theBoundHoldsForRandomAsymmetricDelays() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let truth = Double.random(in: -100_000...100_000, using: &generator)
            let samples = (0..<8).map { index in
                exchange(offset: truth, out: Double.random(in: 0.05...40, using: &generator),
                         back: Double.random(in: 0.05...40, using: &generator), processing: Double.random(in: 0...5, using: &generator),
                         at: 1_000_000 + Double(index) * 100)
            }
            let estimate = try #require(ClockFilter.estimate(samples, resolutionMS: 0))
            #expect(abs(estimate.offsetMS - truth) <= estimate.uncertaintyMS + 1e-6)
        }
    }

    @Test func theMinimumDelaySampleWinsAndOutliersAreDropped() throws {
        let samples = [exchange(offset: 50, out: 20, back: 80), exchange(offset: 50, out: 1, back: 1), exchange(offset: 50, out: 1.5, back: 1)]
        let estimate = try #require(ClockFilter.estimate(samples, resolutionMS: 0))
        #expect(abs(estimate.offsetMS - 50) < 1e-6)
        #expect(estimate.used == 2)
        #expect(estimate.total == 3)
    }

    @Test func integerTimestampsAreCentredWithinTheResolution() throws {
        // The server truncates to whole ms: true receive 10.7 → 10, send 10.9 → 10.
        let sample = ClockSample(t1: 0, t2: 10, t3: 10, t4: 0.4)
        let estimate = try #require(ClockFilter.estimate([sample], resolutionMS: 1))
        let trueOffset = ((10.7 - 0) + (10.9 - 0.4)) / 2
        #expect(abs(estimate.offsetMS - trueOffset) <= estimate.uncertaintyMS)
    }

    @Test func noUsableSample() {
        #expect(ClockFilter.estimate([], resolutionMS: 1) == nil)
    }

    @Test func httpDatesParse() {
        #expect(HTTPDateEstimator.parse("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777_000)
        #expect(HTTPDateEstimator.parse("Sunday, 06-Nov-94 08:49:37 GMT") == nil)
        #expect(HTTPDateEstimator.parse("garbage") == nil)
    }

    @Test func ntpTimestampsRoundTrip() {
        for milliseconds in [0.0, 1_795_380_311_432.5, 1_700_000_000_000.25] {
            let back = SNTPSampler.milliseconds(SNTPSampler.ntpTimestamp(milliseconds: milliseconds))
            #expect(abs(back - milliseconds) < 0.001)
        }
    }

    @Test(arguments: [("1795380311432", 1_795_380_311.432), ("2026-11-22T20:01:02.345Z", 1_795_377_662.345), ("2026-11-22T20:01:02Z", 1_795_377_662)])
    func timestampsToConvertParse(_ text: String, _ seconds: Double) throws {
        let date = try #require(ClockOffsetCommand.parseTimestamp(text))
        #expect(abs(date.timeIntervalSince1970 - seconds) < 0.0005)
    }
    @Test("an offset within its bound is 'in step', without a sign (never -0.0); outside it, signed with its direction")
    func inStepWording() {
        func line(_ offset: Double, _ bound: Double) -> String {
            ClockOffsetReport(offsetMs: offset, uncertaintyMs: bound, rttMs: 0.2, jitterMs: 0.1, method: "ws", source: "ws://h/ws", samplesUsed: 8,
                              samplesTotal: 8, requests: 8, measuredAt: Date(), samples: nil)
                .renderText(style: TextStyle(enabled: false)).split(separator: "\n").first.map(String.init) ?? ""
        }
        #expect(line(-0.04, 0.3).hasPrefix("0.0 ms ±0.3 ms (in step: within the bound)"), "\(line(-0.04, 0.3))")
        #expect(line(0.3, 0.3).hasPrefix("0.3 ms ±0.3 ms (in step: within the bound)"))
        #expect(line(5.25, 0.3).hasPrefix("+5.2 ms ±0.3 ms (back end ahead)") || line(5.25, 0.3).hasPrefix("+5.3 ms ±0.3 ms (back end ahead)"))
        #expect(line(-1500, 2).hasPrefix("-1500.0 ms ±2.0 ms (back end behind)"))
    }
}
