import ConnCommandKit
import ConnCore
import Foundation
import Histogram

/// One target's attempts under `probe --count`, summed up as ping and httping do: sent, ok,
/// loss, the spread of the times of the attempts that succeeded (min, average, median, 95th
/// percentile, max, standard deviation, and the jitter as mtr and RFC 3550 mean it: the mean
/// absolute difference between consecutive times), each rung's median and p95, and the
/// verdicts seen with their counts. Memory stays bounded however many rounds run (`--count 0`
/// for a week): times go into HDR histograms (`TimeSamples`), not a list.
struct ProbeStatistics: Encodable, Sendable {
    let target: String
    private(set) var sent = 0
    private(set) var ok = 0
    /// Total times of the attempts that succeeded.
    private var times = TimeSamples()
    /// Each rung's times (of the attempts where it succeeded), by rung name.
    private var rungTimes: [String: TimeSamples] = [:]
    private var rungOrder: [String] = []
    private(set) var verdicts: [String: Int] = [:]

    init(target: String) {
        self.target = target
    }

    mutating func add(_ result: ProbeResult) {
        sent += 1
        verdicts[result.verdict, default: 0] += 1
        guard result.reachable else { return }
        ok += 1
        times.add(result.totalMs)
        // The route rung is a lookup in the kernel's table, never a wait: not a time to sum up.
        for rung in result.rungs where rung.ok && rung.name != "route" {
            guard let ms = rung.ms else { continue }
            if rungTimes[rung.name] == nil { rungOrder.append(rung.name) }
            rungTimes[rung.name, default: TimeSamples()].add(ms)
        }
    }

    /// Lost attempts, in percent of those sent (0 before any).
    var lossPercent: Double { sent == 0 ? 0 : Double(sent - ok) * 100 / Double(sent) }

    struct Spread: Encodable, Equatable, Sendable {
        let minMs: Double
        let avgMs: Double
        let medianMs: Double
        let p95Ms: Double
        let maxMs: Double
        let stddevMs: Double

        /// nil for no samples. See `TimeSamples` for how exact each figure is.
        init?(_ samples: TimeSamples) {
            guard samples.count > 0 else { return nil }
            minMs = samples.minMs
            maxMs = samples.maxMs
            avgMs = samples.meanMs
            medianMs = samples.percentileMs(50)
            p95Ms = samples.percentileMs(95)
            stddevMs = samples.deviationMs
        }

        /// The spread of a list of times (tests, and the REPL's few).
        init?(_ samples: [Double]) {
            var collected = TimeSamples()
            for sample in samples { collected.add(sample) }
            self.init(collected)
        }
    }

    var spread: Spread? { Spread(times) }

    /// Bytes the time samples hold (bounded: it grows with the range of times seen, not their number).
    var footprintBytes: Int { times.footprintBytes + rungTimes.values.reduce(0) { $0 + $1.footprintBytes } }

    private enum CodingKeys: String, CodingKey {
        case target, sent, ok, lossPercent, minMs, avgMs, medianMs, p95Ms, maxMs, stddevMs, jitterMs, rungs, verdicts
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(target, forKey: .target)
        try container.encode(sent, forKey: .sent)
        try container.encode(ok, forKey: .ok)
        try container.encode(lossPercent, forKey: .lossPercent)
        let spread = spread
        try container.encode(spread?.minMs, forKey: .minMs)
        try container.encode(spread?.avgMs, forKey: .avgMs)
        try container.encode(spread?.medianMs, forKey: .medianMs)
        try container.encode(spread?.p95Ms, forKey: .p95Ms)
        try container.encode(spread?.maxMs, forKey: .maxMs)
        try container.encode(spread?.stddevMs, forKey: .stddevMs)
        try container.encode(spread == nil ? nil : times.jitterMs, forKey: .jitterMs)
        try container.encode(rungOrder.compactMap { name in rungTimes[name].flatMap(Spread.init).map { (name, $0) } }
            .reduce(into: [String: Spread]()) { $0[$1.0] = $1.1 }, forKey: .rungs)
        try container.encode(verdicts, forKey: .verdicts)
    }

    /// ping's closing block for this target:
    /// ```
    /// --- https://api.example.com/health ---
    /// 10 sent, 9 ok, 10% loss; verdicts: reachable 9, timeout 1
    /// min/avg/median/p95/max/stddev/jitter = 11.2/12.0/11.9/14.1/14.1/0.8/0.6 ms
    /// rungs (median/p95): dns 0.4/0.6 ms, tcp 3.1/3.5 ms, http 7.9/9.9 ms
    /// ```
    func renderText(style: TextStyle) -> String {
        let number = { (ms: Double) in String(format: ms < 10 ? "%.2f" : "%.1f", ms) }
        var text = style.bold("--- \(TerminalSanitizer.sanitize(target, keepNewlines: false)) ---") + "\n"
        let loss = String(format: lossPercent.truncatingRemainder(dividingBy: 1) == 0 ? "%.0f" : "%.1f", lossPercent)
        let seen = verdicts.sorted { $0.value == $1.value ? $0.key < $1.key : $0.value > $1.value }.map { "\($0.key) \($0.value)" }
        let lossText = "\(loss)% loss"
        text += "\(sent) sent, \(ok) ok, \(ok == sent ? lossText : style.red(lossText)); verdicts: \(seen.joined(separator: ", "))\n"
        if let spread {
            let values = [spread.minMs, spread.avgMs, spread.medianMs, spread.p95Ms, spread.maxMs, spread.stddevMs, times.jitterMs].map(number)
            text += "min/avg/median/p95/max/stddev/jitter = \(values.joined(separator: "/")) ms\n"
            // A rung that took no time at all (the DNS of an IP literal) says nothing.
            let rungs = rungOrder.compactMap { name in
                rungTimes[name].flatMap(Spread.init).flatMap { $0.maxMs > 0 ? "\(name) \(number($0.medianMs))/\(number($0.p95Ms)) ms" : nil }
            }
            if !rungs.isEmpty { text += "rungs (median/p95): \(rungs.joined(separator: ", "))\n" }
        }
        return text
    }
}
