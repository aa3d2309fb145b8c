import ConnCore

/// The environment a plugin runs with: the caller's, plus conn's resolved configuration in
/// `CONN_*` variables so a plugin talks to the same server with the same settings. The token
/// travels only in `CONN_TOKEN`, never inside another value, and only to a plugin the user named
/// in `pluginsWithToken` (config file, or `CONN_PLUGINS_WITH_TOKEN`): any other plugin runs without
/// it, even when the caller's own environment had one; so does a named plugin that others could
/// replace (`PluginTrust`; the launcher warns).
public enum PluginEnvironment {
    public static func make(
        base: [String: String], configuration: ConnConfiguration, verbosity: String, connExecutable: String?, plugin: String,
        withholdToken: Bool = false
    ) -> [String: String] {
        var environment = base
        environment["CONN_PROFILE"] = configuration.profile
        environment["CONN_FORMAT"] = configuration.format.rawValue
        environment["CONN_COLOR"] = configuration.color.rawValue
        environment["CONN_TIMEOUT"] = String(configuration.timeoutSeconds)
        environment["CONN_CONFIG"] = configuration.configFileExists ? configuration.configFile : nil
        environment["CONN_VERBOSITY"] = verbosity
        environment["CONN_INSECURE"] = configuration.insecure ? "true" : nil
        environment["CONN_CA_CERT"] = configuration.caCert
        if let backEnd = configuration.backEnd {
            environment["CONN_SERVER"] = backEnd.baseURL.absoluteString
            for resource in BackEndResource.allCases {
                let variable = ConfigKeys.environmentVariable(for: ["resources", resource.rawValue])
                environment[variable] = backEnd.url(for: resource).absoluteString
            }
        }
        environment["CONN_TOKEN"] = configuration.pluginsWithToken.contains(plugin) && !withholdToken ? configuration.token : nil
        environment["CONN_EMAIL"] = configuration.email
        if let connExecutable { environment["CONN_EXECUTABLE"] = connExecutable }
        return environment
    }
}
