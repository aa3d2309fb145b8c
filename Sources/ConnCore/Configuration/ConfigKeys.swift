/// The keys a config file may hold. Anything else is reported as unknown (typos are warned about,
/// not silently ignored).
public enum ConfigKeys {
    /// Keys that may stand at the top level and inside a profile.
    public static let settings: [String] = ["server"] + ConfigSetting.all.map(\.key)
    /// Keys only at the top level.
    public static let topLevelOnly: [String] = ["profile", "profiles"]
    /// The subkeys of `resources`.
    public static var resources: [String] { BackEndResource.allCases.map(\.rawValue) }

    /// The environment variable for a key path, as swift-configuration's environment provider
    /// reads it: `["resources","inbox"]` → `CONN_RESOURCES_INBOX`, `["outboxExpiry"]` →
    /// `CONN_OUTBOX_EXPIRY` (camelCase split into words).
    public static func environmentVariable(for components: [String]) -> String {
        let words = components.map { component in
            component.reduce(into: "") { text, character in
                if character.isUppercase, !text.isEmpty { text.append("_") }
                text.append(character)
            }.uppercased()
        }
        return (["CONN"] + words).joined(separator: "_")
    }
}
