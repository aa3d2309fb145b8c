import ArgumentParser
import ConnCommandKit
import ConnCore
import Foundation

/// `conn config get KEY`: the value conn resolves for one key, for scripts.
public struct ConfigGetCommand: ConnCommand {
    public static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Print the value conn uses for one key (from flags, environment, file or default).",
        discussion: HelpText.discussion(
            """
            Prints the value alone, as a script wants it; --json adds where it came from. \
            Durations print as they are written (10s, 24h, 1500ms), a list comma-separated, a \
            resource as its full URL. The token is printed: it is yours, as `gh auth token` \
            prints it. A key with no value (no server, no e-mail) prints nothing and exits with \
            1, as `git config` does.
            """,
            exitCodes: "0 printed; 1 the key has no value; 64 unknown key; 78 the configuration is invalid",
            examples: [
                .init("conn config get server", "The server this profile uses."),
                .init("conn --profile work config get timeout --json", "The work profile's deadline and its source."),
            ]))

    @OptionGroup var keyArgument: ConfigKeyArgument
    var key: ConfigKeyName { keyArgument.key }

    @OptionGroup(title: "Global options") public var global: GlobalOptions

    public init() {}

    public func run(in context: CommandContext) async throws {
        let configuration = context.configuration
        let value = Self.value(of: key, in: configuration)
        let source = configuration.sources[key.dotted] ?? .defaultValue
        try context.printer.emit(ConfigGetReport(
            key: key.dotted, value: value, profile: configuration.profile,
            source: .init(kind: value == nil ? "unset" : source.kind, detail: value == nil ? "unset" : source.description)))
        if value == nil { context.setExitCode(1) }
    }

    /// The resolved value as text, in the form the setting accepts; nil when it has none.
    static func value(of key: ConfigKeyName, in configuration: ConnConfiguration) -> String? {
        if key.components.first == "resources", let resource = BackEndResource(rawValue: key.components[1]) {
            return configuration.url(for: resource)?.absoluteString
        }
        switch key.dotted {
        case "server": return configuration.backEnd?.baseURL.absoluteString
        case "profile": return configuration.profile
        case "email": return configuration.email
        case "token": return configuration.token
        case "format": return configuration.format.rawValue
        case "color": return configuration.color.rawValue
        case "timeout": return DurationParser.text(for: configuration.timeout)
        case "outboxExpiry": return DurationParser.text(for: configuration.outboxExpiry)
        case "outboxKeepSent": return DurationParser.text(for: configuration.outboxKeepSent)
        case "insecure": return configuration.insecure ? "true" : "false"
        case "caCert": return configuration.caCert
        case "utc": return configuration.utc ? "true" : "false"
        case "chronySocket": return configuration.chronySocket
        case "chronyMaxUncertainty": return ConnConfiguration.millisecondsText(configuration.chronyMaxUncertaintyMs)
        case "sync": return configuration.syncResources.isEmpty ? nil : configuration.syncResources.joined(separator: ",")
        case "cacheLimit": return ConnConfiguration.byteSizeText(configuration.cacheLimitBytes)
        case "pluginsWithToken": return configuration.pluginsWithToken.isEmpty ? nil : configuration.pluginsWithToken.joined(separator: ",")
        case "internetCheck":
            let endpoints = configuration.internetCheck ?? ConnConfiguration.defaultInternetCheck
            return endpoints.isEmpty ? "off" : endpoints.map(URLUserinfo.redacted).joined(separator: ",")
        // The proxy as set (--proxy, CONN_PROXY, `proxy:`), its password never printed; the
        // proxy variables of the environment are the environment's, shown by `config show`.
        case "proxy": return configuration.proxy.explicitProxy.map { URLUserinfo.redacted($0.text) }
        case "noProxy": return configuration.proxy.explicitNoProxy?.text
        case "proxyInsecure": return configuration.proxy.trust.insecure ? "true" : "false"
        case "proxyCaCert": return configuration.proxy.trust.caFile
        default: return nil
        }
    }
}

/// What `conn config get` prints.
struct ConfigGetReport: Encodable, TextRenderable, SchemaVersioned {
    static let schemaVersion = 1
    typealias Source = ConfigReport.Source
    let key: String
    let value: String?
    /// The profile in use.
    let profile: String
    let source: Source

    func renderText(style: TextStyle) -> String {
        guard let value else { return "" }
        return TerminalSanitizer.sanitize(value, keepNewlines: false) + "\n"
    }
}
