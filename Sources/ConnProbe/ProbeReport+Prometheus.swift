import ConnCommandKit
import Foundation
import Prometheus

/// `conn probe --format prometheus`: what node_exporter's textfile collector reads — the state
/// the probe found, and each target's families (the same as `/metrics` writes).
extension ProbeReport: PrometheusRenderable {
    func renderPrometheus() -> String {
        let registry = PrometheusCollectorRegistry()
        ProbeMetricsFamilies.addState(state.state, to: registry)
        if let reason = state.reason {
            registry.makeGauge(name: "conn_connectivity_reason_info", labels: [("reason", reason.rawValue)],
                               help: "Why the state is not online (always 1; absent while online).").set(to: 1.0)
        }
        ProbeMetricsFamilies.add(results, to: registry)
        registry.makeGauge(name: "conn_probe_timestamp_seconds", help: "When conn probe ran (Unix time): a stale file shows.")
            .set(Date().timeIntervalSince1970)
        return registry.emitToString()
    }
}
