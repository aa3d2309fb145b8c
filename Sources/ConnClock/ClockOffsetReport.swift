import ConnCommandKit
import ConnCore
import Foundation

/// What `conn clock-offset` prints.
struct ClockOffsetReport: Encodable, TextRenderable {
    struct SampleLine: Encodable {
        let t1: Double, t2: Double, t3: Double, t4: Double, offsetMs: Double, delayMs: Double
    }
    /// Back end minus device; positive when the back end is ahead.
    let offsetMs: Double
    let uncertaintyMs: Double
    let rttMs: Double
    let jitterMs: Double
    let method: String
    let source: String
    let samplesUsed: Int
    let samplesTotal: Int
    let requests: Int
    let measuredAt: Date
    let samples: [SampleLine]?

    func renderText(style: TextStyle) -> String {
        // Within its bound the offset's sign means nothing: no sign, and "in step" (OffsetWording).
        let direction = OffsetWording.direction(offsetMs: offsetMs, uncertaintyMs: uncertaintyMs)
        let shown = OffsetWording.offset(offsetMs: offsetMs, uncertaintyMs: uncertaintyMs)
        var line = "\(style.bold(shown + " ms")) ±\(Self.number(uncertaintyMs)) ms (\(direction))"
        line += style.dim(" · rtt \(Self.number(rttMs)) ms · jitter \(Self.number(jitterMs)) ms · \(samplesUsed)/\(samplesTotal) samples · \(method)")
        var lines = [line]
        for (index, sample) in (samples ?? []).enumerated() {
            lines.append("  #\(index + 1)  offset \(Self.signed(sample.offsetMs)) ms  delay \(Self.number(sample.delayMs)) ms")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func number(_ value: Double) -> String { OffsetWording.number(value) }
    static func signed(_ value: Double) -> String { OffsetWording.signed(value) }
}

/// What `conn clock-offset --convert` prints.
struct ConversionReport: Encodable, TextRenderable {
    let backEndTime: Date
    let deviceTime: Date
    let offsetMs: Double
    let uncertaintyMs: Double
    let offsetMeasuredAt: Date
    let offsetAgeSeconds: Double
    let method: String
    /// Whose clock the offset is of: the configured server's origin (or the source measured).
    let offsetOf: String

    /// One value on stdout, so `$(conn clock-offset --convert T)` is the device time alone; how it
    /// was derived is `derivation`, for stderr.
    func renderText(style: TextStyle) -> String {
        "\(JSONOutput.timestamp(deviceTime))\n"
    }

    var derivation: String {
        "back-end time \(JSONOutput.timestamp(backEndTime)) − offset \(ClockOffsetReport.signed(offsetMs)) ms ±\(ClockOffsetReport.number(uncertaintyMs)) ms, the offset of \(offsetOf), measured \(TimeFormatting.ago(seconds: offsetAgeSeconds)) by \(method)"
    }
}
