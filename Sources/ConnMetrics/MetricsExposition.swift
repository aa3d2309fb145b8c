import ConnCore
import ConnProbe
import Foundation
import Prometheus

/// Writes a `MetricsSnapshot` in Prometheus's text exposition format (0.0.4) through
/// swift-prometheus, which escapes label values and keeps one HELP and TYPE line per family.
/// A fresh registry per scrape: the snapshot is the state, so a target or reason that went
/// away leaves no stale series behind. docs/metrics.md lists every family.
public enum MetricsExposition {
    /// The media type of what `render` writes.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    public static func render(_ snapshot: MetricsSnapshot, version: String, commit: String, process: Bool = true) -> String {
        let registry = PrometheusCollectorRegistry()
        func counter(_ name: String, _ help: String, _ labels: [(String, String)], _ value: Int) {
            registry.makeCounter(descriptor: .whole(name, help), labels: labels).increment(by: Int64(max(0, value)))
        }

        registry.setGauge("conn_build_info", "conn's version and the commit it was built from (always 1).",
                          [("version", version), ("commit", commit)], 1)

        ProbeMetricsFamilies.addState(snapshot.network?.state, to: registry)
        if let since = snapshot.network?.since {
            registry.setGauge("conn_connectivity_state_since_timestamp_seconds", "When the current state began (Unix time).",
                              [], since.timeIntervalSince1970)
        }
        // Every change that can happen exists from the start, at 0: Prometheus's increase() and
        // rate() see a series' first change only when it was there before it.
        for from in NetworkStatus.allCases {
            for to in NetworkStatus.allCases where to != from {
                counter("conn_connectivity_changes_total", "Changes of the connectivity state since conn started, by from and to.",
                        [("from", from.rawValue), ("to", to.rawValue)], snapshot.changes[.init(from: from, to: to)] ?? 0)
            }
        }
        ProbeMetricsFamilies.addReason(snapshot.network?.reason, to: registry)

        if let connected = snapshot.linkConnected {
            registry.setGauge("conn_link_connected", "1 while the WebSocket link to the server is connected.", [], connected ? 1 : 0)
        }
        if let offset = snapshot.clockOffsetMs, offset.isFinite {
            registry.setGauge("conn_backend_clock_offset_seconds", "The back end's clock minus this machine's (positive: the back end is ahead).",
                              [], offset / 1000)
        }
        if let bound = snapshot.clockUncertaintyMs, bound.isFinite {
            registry.setGauge("conn_backend_clock_offset_uncertainty_seconds", "The error bound of the clock offset.", [], bound / 1000)
        }
        if snapshot.clockOffsetMs != nil, let measured = snapshot.clockMeasuredAt {
            registry.setGauge("conn_backend_clock_offset_timestamp_seconds", "When the clock offset was measured (Unix time).",
                              [], measured.timeIntervalSince1970)
        }

        if let samples = snapshot.chronySamples {
            for outcome in ["sent", "withheld", "unavailable"] {
                counter("conn_chrony_samples_total",
                        "Clock estimates offered to chronyd since conn started, by outcome (withheld: the bound was wider than chronyMaxUncertainty; unavailable: chronyd did not listen).",
                        [("outcome", outcome)], samples[outcome] ?? 0)
            }
        }
        if let offset = snapshot.chronyOffsetMs, offset.isFinite {
            registry.setGauge("conn_chrony_offset_seconds", "The last offset sent to chronyd: the back end's clock minus this machine's.", [], offset / 1000)
        }
        if let sentAt = snapshot.chronySentAt {
            registry.setGauge("conn_chrony_last_sent_timestamp_seconds", "When the last estimate sent to chronyd was for (Unix time).", [], sentAt.timeIntervalSince1970)
        }

        if let outbox = snapshot.outbox {
            for kind in ["message", "request"] {
                for state in ["pending", "sending", "sent", "failed"] {
                    registry.setGauge("conn_outbox_messages", "Items in the outbox, by state and kind (message: conn send; request: conn request).",
                                      [("state", state), ("kind", kind)], Double(outbox[kind]?[state] ?? 0))
                }
            }
        }
        if let deliveries = snapshot.deliveries {
            for outcome in ["sent", "retrying", "rejected", "authRefused", "expired"] {
                counter("conn_outbox_deliveries_total", "Delivery attempts since conn started, by outcome.",
                        [("outcome", outcome)], deliveries[outcome] ?? 0)
            }
        }
        if let messages = snapshot.inboxMessages {
            registry.setGauge("conn_inbox_messages", "Messages in the local inbox cache of the configured server.", [], Double(messages))
        }
        if let lastSync = snapshot.lastSync {
            registry.setGauge("conn_inbox_last_sync_timestamp_seconds", "When the inbox was last synced successfully (Unix time).",
                              [], lastSync.timeIntervalSince1970)
        }

        if process {
            let metrics = ProcessMetrics.read()
            if let value = metrics.residentMemoryBytes { registry.setGauge("process_resident_memory_bytes", "Resident memory size in bytes.", [], value) }
            if let value = metrics.cpuSeconds {
                registry.makeCounter(descriptor: .whole("process_cpu_seconds_total", "Total user and system CPU time spent in seconds.")).increment(by: value)
            }
            if let value = metrics.openFDs { registry.setGauge("process_open_fds", "Number of open file descriptors.", [], value) }
            if let value = metrics.startTimeSeconds {
                registry.setGauge("process_start_time_seconds", "Start time of the process since unix epoch in seconds.", [], value)
            }
        }
        // The per-target families, written when the look landed (no family is in both).
        return registry.emitToString() + snapshot.targetsText + snapshot.historyText
    }

    /// The per-target families of a look's results, for `MetricsSnapshot.targetsText`.
    public static func targets(_ results: [ProbeResult]) -> String {
        let registry = PrometheusCollectorRegistry()
        ProbeMetricsFamilies.add(results, to: registry)
        return registry.emitToString()
    }
}
