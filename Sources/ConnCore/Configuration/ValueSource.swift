/// Where a configuration value came from, so errors and `conn config show` can name it.
public enum ValueSource: Sendable, Equatable, CustomStringConvertible {
    case flag(String)
    case environment(String)
    case file(path: String, line: Int?)
    case defaultValue
    /// `conn login`'s token, kept for the profile.
    case signIn(email: String)

    public var description: String {
        switch self {
        case .flag(let name): "flag \(name)"
        case .environment(let variable): "environment variable \(variable)"
        case .file(let path, let line): line.map { "\(path):\($0)" } ?? path
        case .defaultValue: "default"
        case .signIn(let email): "signed in as \(email)"
        }
    }

    /// A short word for JSON output: `flag`, `environment`, `file` or `default`.
    public var kind: String {
        switch self {
        case .flag: "flag"
        case .environment: "environment"
        case .file: "file"
        case .defaultValue: "default"
        case .signIn: "signIn"
        }
    }
}
