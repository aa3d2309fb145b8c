import ConnCommandKit
import Foundation
import Prometheus

/// `conn probe --format prometheus`: what node_exporter's textfile collector reads — the state
/// the probe found, and each target's families (the same as `/metrics` writes).
extension ProbeReport: PrometheusRenderable {
    func renderPrometheus() -> String {
        let registry = PrometheusCollectorRegistry()
        ProbeMetricsFamilies.addState(state.state, to: registry)
        ProbeMetricsFamilies.addReason(state.reason, to: registry)
        ProbeMetricsFamilies.add(results, to: registry)
        registry.setGauge("conn_probe_timestamp_seconds", "When conn probe ran (Unix time): a stale file shows.", [], Date().timeIntervalSince1970)
        return registry.emitToString()
    }
}
