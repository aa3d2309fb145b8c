/// Where a configuration value came from, so errors and `conn config show` can name it.
public enum ValueSource: Sendable, Equatable, CustomStringConvertible {
    case flag(String)
    case environment(String)
    case file(path: String, line: Int?)
    case defaultValue

    public var description: String {
        switch self {
        case .flag(let name): "flag \(name)"
        case .environment(let variable): "environment variable \(variable)"
        case .file(let path, let line): line.map { "\(path):\($0)" } ?? path
        case .defaultValue: "default"
        }
    }

    /// A short word for JSON output: `flag`, `environment`, `file` or `default`.
    public var kind: String {
        switch self {
        case .flag: "flag"
        case .environment: "environment"
        case .file: "file"
        case .defaultValue: "default"
        }
    }
}
