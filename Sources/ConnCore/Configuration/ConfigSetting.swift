import Foundation

/// One plain setting of the configuration: its key (in the file, and as `CONN_<KEY>` in the
/// environment), how its text is read and checked, and the field of `ConnConfiguration` it fills
/// (whose declaration holds the default). `server`, `resources` and `profile` are read by the
/// loader itself: they depend on one another.
///
/// Adding a setting: a field in `ConnConfiguration`, an entry in `all`, and the docs (docs/guide/configuration.md,
/// `config show`). The file's known keys, the environment variable and "from default" in
/// `config show` follow from the entry.
public struct ConfigSetting: Sendable {
    public let key: String
    /// What it sets, for `conn --help` and the man pages' ENVIRONMENT.
    public let help: String
    /// Reads the text of the setting into the configuration, or throws the error that names
    /// the key, the value and its source.
    let read: @Sendable (_ text: String, _ source: ValueSource, _ configuration: inout ConnConfiguration) throws -> Void

    public var environmentVariable: String { ConfigKeys.environmentVariable(for: [key]) }

    /// In the order they are checked: the first bad value is the one reported.
    public static let all: [ConfigSetting] = [
        .choice("format", \.format, help: "text or json (as --format; prometheus is for conn probe only)"),
        .choice("color", \.color, help: "auto, always or never (as --color)"),
        .duration("timeout", \.timeout, help: "the deadline of each network operation (as --timeout)",
                  hint: "Use seconds (10, 2.5) or a unit: 500ms, 5s, 2m."),
        .duration("outboxExpiry", \.outboxExpiry, help: "how long the outbox keeps trying a message (24h)", hint: "Use a unit: 30m, 24h, 7d."),
        .duration("outboxKeepSent", \.outboxKeepSent, help: "how long a sent message stays in the outbox before it is pruned (7d)",
                  hint: "Use a unit: 30m, 24h, 7d."),
        .flag("insecure", \.insecure, help: "true: accept TLS certificates that do not verify (as --insecure)"),
        ConfigSetting(key: "caCert", help: "a PEM file of the CA certificates a server's may be signed by, instead of the system's (as --cacert)") { text, source, configuration in
            guard !text.isEmpty else { configuration.caCert = nil; return }
            if case .failure(let problem) = ServerTrust.certificates(in: text) {
                throw ConnError.configuration("caCert '\(text)' (from \(source)): \(problem.message)", hint: ServerTrust.hint)
            }
            configuration.caCert = text
        },
        .flag("utc", \.utc, help: "true: times in text in UTC, not local time (as --utc; JSON is always UTC)"),
        .text("email", \.email, help: "your address, the sender of what you send", emptyIsUnset: false),
        .text("token", \.token, help: "the bearer token, sent to the configured server's origin only", emptyIsUnset: true),
        .list("pluginsWithToken", \.pluginsWithToken, help: "the plugins that get the token (comma-separated names)"),
        ConfigSetting(key: "internetCheck", help: "the internet check's endpoints, comma-separated URL[=STATUS[:TEXT]] (as --internet-url), or off") { text, source, configuration in
            let written = text.trimmingBlanks()
            if written.lowercased() == "off" { configuration.internetCheck = []; return }
            let entries = written.split(separator: ",").map { $0.trimmingBlanks() }.filter { !$0.isEmpty }
            guard !entries.isEmpty else { configuration.internetCheck = nil; return }
            for entry in entries where !entry.lowercased().hasPrefix("http://") {
                throw ConnError.configuration("internetCheck '\(URLUserinfo.redacted(entry))' (from \(source)) is not a plain http:// URL",
                                              hint: "The internet check needs plain HTTP (a captive portal can only answer that): http://HOST/PATH[=STATUS[:TEXT]], comma-separated, or off.")
            }
            configuration.internetCheck = entries
        },
        .text("chronySocket", \.chronySocket, help: "where conn agent sends its clock estimates to chronyd (chrony.conf's refclock SOCK PATH)", emptyIsUnset: true),
        ConfigSetting(key: "chronyMaxUncertainty", help: "the widest error bound in ms of an estimate conn agent sends to chronyd (100)") { text, source, configuration in
            guard let value = Double(text.trimmingBlanks()), value.isFinite, value > 0, value <= 60_000 else {
                throw ConnError.configuration("chronyMaxUncertainty '\(text)' (from \(source)) is not a number of milliseconds above 0 and at most 60000",
                                              hint: "Estimates with a wider error bound are not sent to chronyd: 100 (the default) suits most links, 20 a LAN.")
            }
            configuration.chronyMaxUncertaintyMs = value
        },
        ConfigSetting(key: "sync", help: "the URLs conn agent keeps fresh for conn get, comma-separated (refreshed with the inbox)") { text, source, configuration in
            let urls = text.split(separator: ",").map { $0.trimmingBlanks() }.filter { !$0.isEmpty }
            for url in urls {
                if let problem = BackEndEndpoint.serverURLProblem(url) {
                    throw ConnError.configuration("sync '\(URLUserinfo.redacted(url))' (from \(source)) \(problem)",
                                                  hint: "List http:// or https:// URLs, comma-separated: sync: https://api.example.com/v1/catalog.json")
                }
            }
            configuration.syncResources = urls
        },
        ConfigSetting(key: "cacheLimit", help: "the most conn get's copies may hold together, e.g. 256MiB (the default), 1GiB") { text, source, configuration in
            guard let bytes = ConnConfiguration.byteSize(text) else {
                throw ConnError.configuration("cacheLimit '\(text)' (from \(source)) is not a size from 1MiB to 1TiB",
                                              hint: "Write a number with KiB, MiB or GiB: 256MiB (the default), 1GiB.")
            }
            configuration.cacheLimitBytes = bytes
        },
        ConfigSetting(key: "proxy", help: "the proxy for every request, '' for none (as --proxy; else http_proxy, https_proxy, all_proxy)") { text, source, configuration in
            if !text.trimmingBlanks().isEmpty, case .failure(let problem) = ProxyServer.read(text) {
                throw ConnError.configuration("proxy '\(URLUserinfo.redacted(text))' (from \(source)) \(problem.why)", hint: ProxyServer.hint)
            }
            configuration.proxy.explicitProxy = .init(text: text, source: source.description)
        },
        ConfigSetting(key: "noProxy", help: "hosts reached without the proxy (as --noproxy; else no_proxy)") { text, source, configuration in
            configuration.proxy.explicitNoProxy = .init(text: text, source: source.description)
        },
        .flag("proxyInsecure", \.proxy.trust.insecure, help: "true: do not check an https:// proxy's certificate (as --proxy-insecure)"),
        ConfigSetting(key: "proxyCaCert", help: "a PEM file of the certificates an https:// proxy's may be signed by (as --proxy-cacert)") { text, source, configuration in
            guard !text.isEmpty else { configuration.proxy.trust.caFile = nil; return }
            if case .failure(let problem) = ProxyTrust.certificates(in: text) {
                throw ConnError.configuration("proxyCaCert '\(text)' (from \(source)): \(problem.message)", hint: ProxyTrust.hint)
            }
            configuration.proxy.trust.caFile = text
        },
    ]

    /// Free text.
    static func text(_ key: String, _ field: any WritableKeyPath<ConnConfiguration, String?> & Sendable, help: String, emptyIsUnset: Bool) -> ConfigSetting {
        ConfigSetting(key: key, help: help) { text, _, configuration in configuration[keyPath: field] = emptyIsUnset && text.isEmpty ? nil : text }
    }

    /// One of an enumeration's raw values, in any case.
    static func choice<Choice: RawRepresentable & CaseIterable & Sendable>(
        _ key: String, _ field: any WritableKeyPath<ConnConfiguration, Choice> & Sendable, help: String
    ) -> ConfigSetting where Choice.RawValue == String {
        ConfigSetting(key: key, help: help) { text, source, configuration in
            guard let value = Choice(rawValue: text.lowercased()) else {
                throw ConnError.configuration(
                    "\(key) '\(text)' (from \(source)) is not one of: \(Choice.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            configuration[keyPath: field] = value
        }
    }

    /// A positive duration (`DurationParser`).
    static func duration(_ key: String, _ field: any WritableKeyPath<ConnConfiguration, Duration> & Sendable, help: String, hint: String) -> ConfigSetting {
        ConfigSetting(key: key, help: help) { text, source, configuration in
            guard let value = DurationParser.parse(text), value > .zero else {
                throw ConnError.configuration(
                    "\(key) '\(text)' (from \(source)) is not a positive duration (\(DurationParser.rangeText))", hint: hint)
            }
            configuration[keyPath: field] = value
        }
    }

    /// true/false (also yes/no, on/off, 1/0).
    static func flag(_ key: String, _ field: any WritableKeyPath<ConnConfiguration, Bool> & Sendable, help: String) -> ConfigSetting {
        ConfigSetting(key: key, help: help) { text, source, configuration in
            switch text.lowercased() {
            case "true", "yes", "on", "1": configuration[keyPath: field] = true
            case "false", "no", "off", "0": configuration[keyPath: field] = false
            default: throw ConnError.configuration("\(key) '\(text)' (from \(source)) is not true or false")
            }
        }
    }

    /// A comma-separated list; blanks dropped.
    static func list(_ key: String, _ field: any WritableKeyPath<ConnConfiguration, [String]> & Sendable, help: String) -> ConfigSetting {
        ConfigSetting(key: key, help: help) { text, _, configuration in
            configuration[keyPath: field] = text.split(separator: ",").map { $0.trimmingBlanks() }.filter { !$0.isEmpty }
        }
    }
}
