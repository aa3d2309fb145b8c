import ConnCore
import ConnProbe
import Foundation
import Prometheus

/// The probes of a long-running conn over time, for Prometheus to aggregate: each target's
/// phase durations as a histogram (`conn_probe_duration_seconds{target,phase}`, the blackbox
/// exporter's phase names: resolve, connect, tls, processing, transfer) and its failures by reason
/// (`conn_probe_failures_total{target,reason}`). Unlike the rest of the exposition these are
/// cumulative, so they live in one registry for the process's life.
public final class ProbeHistory: Sendable {
    /// Prometheus's default buckets, in seconds.
    public static let defaultBuckets: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    /// conn's rung names → the blackbox exporter's phase names.
    static let phases = [("dns", "resolve"), ("tcp", "connect"), ("tls", "tls"), ("http", "processing")]

    private let registry = PrometheusCollectorRegistry()
    private let buckets: [Duration]

    /// `buckets`: upper bounds in seconds, increasing (checked by `parseBuckets`).
    public init(buckets: [Double] = ProbeHistory.defaultBuckets) {
        self.buckets = buckets.map { .nanoseconds(Int64(($0 * 1e9).rounded())) }
    }

    /// Counts one look's results in.
    public func record(_ results: [ProbeResult]) {
        for result in results {
            let target = result.target
            for (phase, ms) in Self.phaseDurations(result) {
                registry.makeDurationHistogram(
                    descriptor: MetricNameDescriptor(namespace: "conn", subsystem: "probe", metricName: "duration", unitName: "seconds",
                                                     helpText: "Duration of each phase of the probes of a target (resolve, connect, tls, processing, transfer)."),
                    labels: [("target", target), ("phase", phase)], buckets: buckets
                ).record(.nanoseconds(Int64((ms * 1e6).rounded())))
            }
            // Every reason the target's verdict can take is there from its first look, at 0:
            // increase() and rate() see a reason's first failure only when the series existed before it.
            for reason in Self.possibleReasons(result) {
                let counter = registry.makeCounter(descriptor: Self.failures, labels: [("target", target), ("reason", reason.rawValue)])
                if !result.reachable, reason.rawValue == result.verdict { counter.increment() }
            }
            if !result.reachable, ReachabilityFailure(rawValue: result.verdict) == nil {
                registry.makeCounter(descriptor: Self.failures, labels: [("target", target), ("reason", result.verdict)]).increment()
            }
        }
    }

    private static var failures: MetricNameDescriptor { MetricNameDescriptor(namespace: "conn", subsystem: "probe", metricName: "failures", unitName: "total",
                                                       helpText: "Failed probes of a target since conn started, by reason (its verdict).") }

    /// The verdicts a target like this one can come to: the ladder's for any target, the HTTP
    /// ones for a URL (portal for the configured server's), tlsError over TLS, and a proxy's
    /// when one carried the look.
    static func possibleReasons(_ result: ProbeResult) -> [ReachabilityFailure] {
        var reasons: [ReachabilityFailure] = [.nxdomain, .noRoute, .noCarrier, .refused, .timeout]
        let isURL = result.kind != "hostPort"
        if isURL { reasons += [.httpStatus, .unexpectedBody, .redirected] }
        if result.kind == "server" { reasons.append(.portal) }
        if result.url?.lowercased().hasPrefix("https:") == true { reasons.append(.tlsError) }
        if result.rungs.contains(where: { $0.name == "proxy" || $0.name == "proxyTls" }) || result.verdict.hasPrefix("proxy") {
            reasons += [.proxyUnreachable, .proxyAuthRequired, .proxyRefused, .unreachable]
        }
        return reasons
    }

    /// The phases of one look that ran to an answer, in milliseconds, by the blackbox exporter's
    /// names; the HTTP rung split at the answer's first byte into processing and transfer.
    static func phaseDurations(_ result: ProbeResult) -> [(String, Double)] {
        var phases: [(String, Double)] = []
        for (rung, phase) in Self.phases {
            guard let step = result.rungs.last(where: { $0.name == rung && $0.ok }), let ms = step.ms, ms.isFinite, ms >= 0 else { continue }
            // A rung that took no time (the DNS of an IP literal) was not a phase of this probe.
            if rung == "dns", ms == 0 { continue }
            if rung == "http", let firstByte = result.response?.firstByteMs, firstByte.isFinite, firstByte >= 0 {
                phases.append(("processing", min(firstByte, ms)))
                phases.append(("transfer", ms - min(firstByte, ms)))
            } else {
                phases.append((phase, ms))
            }
        }
        return phases
    }

    /// The families so far, in the text exposition format.
    public func render() -> String {
        registry.emitToString()
    }

    /// `--metrics-buckets 0.01,0.05,0.1,0.5,1`: upper bounds in seconds, more than 0, increasing,
    /// at most 50 of them.
    public static func parseBuckets(_ text: String) throws -> [Double] {
        let values = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        var buckets: [Double] = []
        for value in values {
            guard let number = Double(value), number.isFinite, number > 0, number <= 3600 else {
                throw BucketError(text: text, reason: "'\(value)' is not a number of seconds (more than 0, at most 3600)")
            }
            guard buckets.last.map({ number > $0 }) ?? true else { throw BucketError(text: text, reason: "the bounds must increase") }
            buckets.append(number)
        }
        guard (1...50).contains(buckets.count) else { throw BucketError(text: text, reason: "give 1 to 50 bounds") }
        return buckets
    }

    public struct BucketError: Error, CustomStringConvertible {
        let text: String
        let reason: String
        public var description: String { "--metrics-buckets '\(text)': \(reason) (for example 0.01,0.05,0.1,0.5,1)" }
    }
}
