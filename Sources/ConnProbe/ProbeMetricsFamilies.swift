import ConnCore
import Foundation
import Prometheus

/// The per-target families every Prometheus form of conn writes — `conn probe --format
/// prometheus`, and the `/metrics` of `conn watch` and `conn agent` — so they cannot drift apart.
public enum ProbeMetricsFamilies {
    /// Adds `conn_probe_success`, `conn_probe_verdict_info`, `conn_probe_last_duration_seconds`, the certificate's expiry and
    /// `conn_probe_interface_info` for each result to `registry`.
    public static func add(_ results: [ProbeResult], to registry: PrometheusCollectorRegistry) {
        for result in results {
            let target = label(result)
            registry.setGauge("conn_probe_success", "1 if the target answered as expected at the last look, else 0.",
                              [("target", target)], result.reachable ? 1 : 0)
            registry.setGauge("conn_probe_verdict_info", "The target's verdict at the last look: reachable, or the first layer that failed (always 1).",
                              [("target", target), ("verdict", result.verdict)], 1)
            for rung in result.rungs {
                guard let ms = rung.ms, ms.isFinite, ms >= 0 else { continue }
                registry.setGauge("conn_probe_last_duration_seconds", "How long each phase of the last look at the target took.",
                                  [("target", target), ("phase", rung.name)], ms / 1000)
            }
            if let certificate = result.certificate {
                registry.setGauge("conn_probe_certificate_expiry_timestamp_seconds", "When the target's TLS certificate expires (Unix time).",
                                  [("target", target)], certificate.notValidAfter.timeIntervalSince1970)
            }
            if let interface = result.interface {
                registry.setGauge("conn_probe_interface_info", "The interface the target's route leaves by (always 1).",
                                  [("target", target), ("interface", interface.name), ("kind", interface.kind.rawValue),
                       ("expensive", interface.expensive ? "true" : "false")], 1)
            }
        }
    }

    /// `conn_connectivity_state{state}`: 1 for `state`, 0 for the others (all 0 for nil).
    public static func addState(_ state: NetworkStatus?, to registry: PrometheusCollectorRegistry) {
        for candidate in NetworkStatus.allCases {
            registry.setGauge("conn_connectivity_state", "1 for the current connectivity state, 0 for the others (all 0 before the first look).",
                              [("state", candidate.rawValue)], state == candidate ? 1 : 0)
        }
    }

    /// `conn_connectivity_reason_info{reason}`, only while there is a reason (not online).
    public static func addReason(_ reason: StateReason?, to registry: PrometheusCollectorRegistry) {
        guard let reason else { return }
        registry.setGauge("conn_connectivity_reason_info", "Why the state is not online (always 1; absent while online).",
                          [("reason", reason.rawValue)], 1)
    }

    /// A target as a label value: the URL or host:port without any user:password.
    public static func label(_ result: ProbeResult) -> String {
        URLUserinfo.redacted(result.url ?? result.target)
    }
}
