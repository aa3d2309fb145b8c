/// A payload with a Prometheus text form (`--format prometheus`).
public protocol PrometheusRenderable {
    /// The text exposition format (0.0.4), ending in a newline.
    func renderPrometheus() -> String
}

/// A command that writes `--format prometheus`; the command runner refuses the format for the
/// others with 64 rather than print something else.
public protocol PrometheusOutputCommand {}
