import Prometheus

extension PrometheusCollectorRegistry {
    /// Sets the gauge `name` with `labels` to `value`: what every family conn writes needs, as
    /// each exposition is a fresh registry filled from a snapshot.
    public func setGauge(_ name: String, _ help: String, _ labels: [(String, String)] = [], _ value: Double) {
        let gauge = labels.isEmpty ? makeGauge(name: name, help: help) : makeGauge(name: name, labels: labels, help: help)
        gauge.set(value)
    }
}
