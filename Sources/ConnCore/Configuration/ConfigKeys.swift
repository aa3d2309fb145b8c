/// The keys a config file may hold. Anything else is reported as unknown (typos are warned about,
/// not silently ignored).
public enum ConfigKeys {
    /// Keys that may stand at the top level and inside a profile.
    public static let settings: [String] = ["server", "email", "token", "timeout", "format", "color", "insecure", "outboxExpiry", "pluginsWithToken"]
    /// Keys only at the top level.
    public static let topLevelOnly: [String] = ["profile", "profiles"]
    /// The subkeys of `resources`.
    public static var resources: [String] { BackEndResource.allCases.map(\.rawValue) }

    /// The environment variable for a key path, e.g. `["resources","inbox"]` → `CONN_RESOURCES_INBOX`.
    public static func environmentVariable(for components: [String]) -> String {
        (["CONN"] + components.map { $0.uppercased() }).joined(separator: "_")
    }
}
