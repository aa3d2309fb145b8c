import Prometheus

extension PrometheusCollectorRegistry {
    /// Sets the gauge `name` with `labels` to `value`: what every family conn writes needs, as
    /// each exposition is a fresh registry filled from a snapshot.
    public func setGauge(_ name: String, _ help: String, _ labels: [(String, String)] = [], _ value: Double) {
        makeGauge(descriptor: .whole(name, help), labels: labels).set(value)
    }
}

extension MetricNameDescriptor {
    /// A descriptor of a name conn writes whole (unit included, as `conn_probe_duration_seconds`):
    /// the library joins non-empty parts, so the empty unit adds nothing.
    public static func whole(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }
}
