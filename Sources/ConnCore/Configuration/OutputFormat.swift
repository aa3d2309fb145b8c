/// How a command prints its data.
public enum OutputFormat: String, Sendable, Codable, CaseIterable {
    /// For people: aligned text, colour on a terminal.
    case text
    /// For scripts: one JSON object (or JSON Lines for streams) with stable camelCase keys.
    case json
    /// For Prometheus (node_exporter's textfile collector): the text exposition format. Only
    /// `conn probe` writes it; every other command refuses it with 64.
    case prometheus
}

/// When to use colour.
public enum ColorMode: String, Sendable, Codable, CaseIterable {
    /// Colour when writing to a terminal, unless NO_COLOR is set or TERM is dumb.
    case auto
    /// Colour even when not writing to a terminal (an explicit request beats NO_COLOR,
    /// as no-color.org asks).
    case always
    case never

    /// Whether to colour a stream, given whether it is a terminal and the environment.
    public func enabled(isTerminal: Bool, environment: [String: String]) -> Bool {
        switch self {
        case .never: return false
        case .always: return true
        case .auto:
            if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
            if environment["TERM"] == "dumb" { return false }
            return isTerminal
        }
    }
}
