import ConnCommandKit
import ConnCore
import Foundation
import Synchronization

/// The probes a long-lived process ran, summed up per target as `probe --count` sums its rounds:
/// `conn repl`'s `stats`. Off (nothing kept) until `enable()`, so a one-off `conn probe` pays
/// nothing. Bounded: each target's times are HDR histograms, and at most `maximumTargets`
/// targets are kept (results of any more are counted, not summed).
public final class ProbeJournal: Sendable {
    public static let shared = ProbeJournal()
    public static let maximumTargets = 1000

    private struct Journal {
        var order: [String] = []
        var statistics: [String: ProbeStatistics] = [:]
        var resultsNotKept = 0
    }

    private let journal = Mutex<Journal?>(nil)

    public init() {}

    /// Starts keeping (a second call keeps what is there).
    public func enable() {
        journal.withLock { if $0 == nil { $0 = Journal() } }
    }

    /// Forgets every probe so far (stays on).
    public func clear() {
        journal.withLock { if $0 != nil { $0 = Journal() } }
    }

    /// Counts one look's results in (nothing while off).
    func record(_ results: [ProbeResult]) {
        journal.withLock { journal in
            guard journal != nil else { return }
            for result in results {
                let key = ProbeMetricsFamilies.label(result)
                if journal!.statistics[key] == nil {
                    guard journal!.order.count < Self.maximumTargets else {
                        journal!.resultsNotKept += 1
                        continue
                    }
                    journal!.order.append(key)
                    journal!.statistics[key] = ProbeStatistics(target: key)
                }
                journal!.statistics[key]!.add(result)
            }
        }
    }

    /// What `stats` shows: every target in the order first probed.
    public func summary() -> Summary {
        journal.withLock { journal in
            guard let journal else { return Summary(statistics: [], resultsNotKept: 0) }
            return Summary(statistics: journal.order.compactMap { journal.statistics[$0] }, resultsNotKept: journal.resultsNotKept)
        }
    }

    /// The probes summed up: ping's block per target in text, `statistics` in JSON (the items of
    /// `probe --count --json`'s).
    public struct Summary: Encodable, Sendable {
        let statistics: [ProbeStatistics]
        /// Results of targets beyond the first `maximumTargets`: probed, not summed up.
        public let resultsNotKept: Int

        public var isEmpty: Bool { statistics.isEmpty }

        public func renderText(style: TextStyle) -> String {
            guard !statistics.isEmpty else { return "no probes yet in this session: `probe` (or `probe --count N`) adds to these\n" }
            var text = statistics.map { $0.renderText(style: style) }.joined(separator: "\n")
            if resultsNotKept > 0 {
                text += "(\(resultsNotKept) results of targets beyond the first \(ProbeJournal.maximumTargets) were not summed up)\n"
            }
            return text
        }
    }
}
