import ConnCommandKit
import ConnCore
import Foundation

/// What `conn config show` prints. Keys are part of the JSON contract.
struct ConfigReport: Encodable, TextRenderable {
    struct Source: Encodable {
        let kind: String
        let detail: String
    }

    let profile: String
    let configFile: String
    let configFileExists: Bool
    let server: String?
    /// The full URL of each back-end resource, once a server is configured.
    let resources: [String: String]?
    let email: String?
    /// Always `<redacted>` when a token is set; never the token itself.
    let token: String?
    let tokenSet: Bool
    /// A token kept back because it belongs to another server: which, and whence.
    let tokenWithheld: Withheld?

    struct Withheld: Encodable {
        let issuedFor: String
        let source: String
    }
    /// The profile's `conn login` (never its token), and whether its token is the one in use.
    let signIn: SignInSummary?

    struct SignInSummary: Encodable {
        let email: String
        let server: String
        let expiresAt: Date
        let inUse: Bool
        /// Why it is not in use: expired, another server's, or a configured token wins.
        let note: String?
    }
    let format: String
    let color: String
    let timeoutSeconds: Double
    let insecure: Bool
    /// `caCert`: the PEM file servers' certificates are checked against (nil: the system's store).
    let caCert: String?
    let utc: Bool
    let outboxExpirySeconds: Double
    let outboxKeepSentSeconds: Double
    /// The plugins that get the token in CONN_TOKEN.
    let pluginsWithToken: [String]
    /// Where the agent sends clock estimates to chronyd (nil: nowhere), and the widest bound sent.
    let chronySocket: String?
    let chronyMaxUncertaintyMs: Double
    /// The most conn get's copies may hold together, in bytes.
    let cacheLimitBytes: Int
    /// The URLs conn agent keeps fresh (`sync`).
    let sync: [String]
    /// The internet check's endpoints the monitors use (conn's own when none is set; empty: off).
    let internetCheck: [String]
    let databaseFile: String
    let sources: [String: Source]
    /// The proxy requests to the server take, and why (nil without a server).
    let proxy: ProxyReport?

    struct ProxyReport: Encodable {
        /// `http://ann@proxy.example:3128` (never a password), or nil: direct.
        let url: String?
        /// Which setting chose it, or why none applies ("NO_PROXY lists …", "no proxy is set").
        let reason: String
        /// A proxy setting that cannot be used (a bad URL), as the request would fail on it.
        let problem: String?
        /// For an https:// proxy: what its certificate is checked against.
        var trust: String?
    }

    init(_ configuration: ConnConfiguration) {
        profile = configuration.profile
        configFile = configuration.configFile
        configFileExists = configuration.configFileExists
        server = configuration.backEnd?.baseURL.absoluteString
        if let backEnd = configuration.backEnd {
            resources = Dictionary(uniqueKeysWithValues: BackEndResource.allCases.map { ($0.rawValue, backEnd.url(for: $0).absoluteString) })
        } else if !configuration.standaloneResources.isEmpty {
            // Only what stands alone (a full URL) without a server.
            resources = Dictionary(uniqueKeysWithValues: configuration.standaloneResources.map { ($0.key.rawValue, $0.value.absoluteString) })
        } else {
            resources = nil
        }
        email = configuration.email
        token = configuration.redactedToken
        tokenSet = configuration.token != nil
        tokenWithheld = configuration.withheldToken.map { Withheld(issuedFor: $0.issuedFor, source: $0.source) }
        signIn = configuration.signIn.map { signIn in
            var inUse = false
            if case .signIn? = configuration.sources["token"] { inUse = true }
            var note: String?
            if !inUse {
                if signIn.expiresAt <= Date() {
                    note = "the sign-in as \(signIn.email) expired \(TimeFormatting.ago(seconds: -signIn.expiresAt.timeIntervalSinceNow)): conn login"
                } else if let server = configuration.backEnd?.baseURL, !signIn.isFor(server: server) {
                    note = "the sign-in as \(signIn.email) is for \(signIn.server), not this server: conn login"
                } else if configuration.backEnd == nil {
                    note = "the sign-in as \(signIn.email) is for \(signIn.server), and no server is configured"
                } else {
                    note = "a configured token is used instead of the sign-in as \(signIn.email)"
                }
            }
            return SignInSummary(email: signIn.email, server: signIn.server, expiresAt: signIn.expiresAt, inUse: inUse, note: note)
        }
        format = configuration.format.rawValue
        color = configuration.color.rawValue
        timeoutSeconds = configuration.timeoutSeconds
        insecure = configuration.insecure
        caCert = configuration.caCert
        utc = configuration.utc
        outboxExpirySeconds = configuration.outboxExpiry.seconds
        outboxKeepSentSeconds = configuration.outboxKeepSent.seconds
        pluginsWithToken = configuration.pluginsWithToken
        chronySocket = configuration.chronySocket
        chronyMaxUncertaintyMs = configuration.chronyMaxUncertaintyMs
        cacheLimitBytes = configuration.cacheLimitBytes
        sync = configuration.syncResources.map(URLUserinfo.redacted)
        internetCheck = configuration.internetCheck.map { $0.map(URLUserinfo.redacted) } ?? ConnConfiguration.defaultInternetCheck
        databaseFile = configuration.paths.databaseFile
        sources = configuration.sources.mapValues { Source(kind: $0.kind, detail: $0.description) }
        proxy = configuration.backEnd.map { backEnd in
            do {
                let decision = try configuration.proxy.decision(for: backEnd.baseURL)
                return ProxyReport(url: decision.server?.display, reason: decision.reason, problem: nil,
                                   trust: decision.server.flatMap { $0.scheme == .https ? $0.trust.description : nil })
            } catch {
                return ProxyReport(url: nil, reason: "the proxy setting cannot be used", problem: (error as? ConnError)?.message ?? "\(error)")
            }
        }
    }

    private var tokenText: String {
        let note = signIn?.note.map { "; " + $0 } ?? ""
        if !tokenSet, let tokenWithheld {
            return "(not sent: it is for \(tokenWithheld.issuedFor))"
        }
        guard tokenSet else { return "(none)" + note }
        if signIn?.inUse == true, let signIn { return "(signed in as \(signIn.email), token hidden)" }
        return "(set, hidden)" + note
    }

    func renderText(style: TextStyle) -> String {
        var rows: [(String, String, String?)] = [
            ("profile", profile, sources["profile"]?.detail),
            ("server", server ?? "(none)", sources["server"]?.detail),
        ]
        for resource in BackEndResource.allCases {
            guard let url = resources?[resource.rawValue] else { continue }
            rows.append(("  \(resource.rawValue)", url, sources["resources.\(resource.rawValue)"]?.detail))
        }
        rows += [
            ("email", email ?? "(none)", sources["email"]?.detail),
            ("token", tokenText, sources["token"]?.kind == "signIn" ? nil : sources["token"]?.detail),
            ("format", format, sources["format"]?.detail),
            ("color", color, sources["color"]?.detail),
            ("timeout", TimeFormatting.duration(seconds: timeoutSeconds), sources["timeout"]?.detail),
            ("insecure", insecure ? "true" : "false", sources["insecure"]?.detail),
            ("caCert", caCert ?? "(none: the system's trust store)", sources["caCert"]?.detail),
            ("utc", utc ? "true" : "false", sources["utc"]?.detail),
            ("outboxExpiry", TimeFormatting.duration(seconds: outboxExpirySeconds), sources["outboxExpiry"]?.detail),
            ("outboxKeepSent", TimeFormatting.duration(seconds: outboxKeepSentSeconds), sources["outboxKeepSent"]?.detail),
            ("pluginsWithToken", pluginsWithToken.isEmpty ? "(none)" : pluginsWithToken.joined(separator: ", "), sources["pluginsWithToken"]?.detail),
            ("chronySocket", chronySocket ?? "(none)", sources["chronySocket"]?.detail),
            ("chronyMaxUncertainty", ConnConfiguration.millisecondsText(chronyMaxUncertaintyMs) + " ms", sources["chronyMaxUncertainty"]?.detail),
            ("cacheLimit", ConnConfiguration.byteSizeText(cacheLimitBytes), sources["cacheLimit"]?.detail),
            ("sync", sync.isEmpty ? "(none)" : sync.joined(separator: ", "), sources["sync"]?.detail),
            ("internetCheck", internetCheck.isEmpty ? "off" : internetCheck.joined(separator: ", "), sources["internetCheck"]?.detail),
        ]
        if let proxy {
            rows.append(("proxy", proxy.problem.map { "(unusable: \($0))" } ?? proxy.url ?? "(none: direct)", proxy.problem == nil ? proxy.reason : nil))
            if let trust = proxy.trust { rows.append(("proxyTrust", trust, nil)) }
        }
        rows += [
            ("config", configFile + (configFileExists ? "" : " (not found; defaults apply)"), nil),
            ("database", databaseFile, nil),
        ]
        // Values come from files and the environment: sanitised like any text from outside.
        let cleanRows = rows.map { ($0.0, TerminalSanitizer.sanitize($0.1, keepNewlines: false), $0.2.map { TerminalSanitizer.sanitize($0, keepNewlines: false) }) }
        let nameWidth = cleanRows.map(\.0.count).max() ?? 0
        let valueWidth = cleanRows.filter { $0.2 != nil }.map(\.1.count).max() ?? 0
        return cleanRows.map { name, value, source in
            let padded = name.padded(to: nameWidth)
            guard let source else { return "\(style.bold(padded))  \(value)" }
            let paddedValue = value.padded(to: valueWidth)
            return "\(style.bold(padded))  \(paddedValue)  \(style.dim("(\(source))"))"
        }.joined(separator: "\n") + "\n"
    }
}
