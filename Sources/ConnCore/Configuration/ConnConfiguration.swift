import Foundation

/// The resolved configuration a command runs with: every value validated, each with its source.
/// The plain settings' defaults are their fields' initial values; `ConfigSetting.all` reads them.
public struct ConnConfiguration: Sendable {
    /// The profile in use (`default` unless chosen).
    public var profile: String
    /// The config file that was read (or would be, if it does not exist).
    public var configFile: String
    public var configFileExists: Bool
    /// The profiles the config file defines under `profiles:`, in its order.
    public var profileNames: [String] = []
    /// The config file sets a token somewhere (the top level or a profile).
    public var configFileHoldsToken = false
    /// The app's back end, if one is configured.
    public var backEnd: BackEndEndpoint?
    /// Resources given as full URLs while no server is configured (an inbox at a URL alone).
    public var standaloneResources: [BackEndResource: URL] = [:]
    public var email: String?
    /// The bearer token. Never printed: use `redactedToken` for display.
    public var token: String?
    /// The profile's `conn login`, when there is one (its token is `token` unless a token is
    /// configured, it expired, or it was granted by another server).
    public var signIn: SignIn?
    public var format = OutputFormat.text
    public var color = ColorMode.auto
    /// The deadline for one network operation.
    public var timeout: Duration = .seconds(10)
    /// Accept TLS certificates that do not verify (self-signed test servers). Off unless asked for.
    public var insecure = false
    /// `--cacert` / `caCert`: a PEM file of the CA certificates a server's may be signed by,
    /// instead of the system's.
    public var caCert: String?
    /// How servers' certificates are checked (`insecure`, `caCert`).
    public var serverTrust: ServerTrust { ServerTrust(insecure: insecure, caFile: caCert) }
    /// Text shows moments in UTC rather than the local zone (`--utc`).
    public var utc = false
    /// How long the outbox keeps retrying a message before marking it failed(expired).
    public var outboxExpiry: Duration = .seconds(24 * 3600)
    /// How long a sent message stays in the outbox (for `outbox list --all`) before it is pruned.
    public var outboxKeepSent: Duration = .seconds(7 * 24 * 3600)
    /// `chronySocket`: where `conn agent` sends its clock estimates to chronyd (chrony.conf's
    /// `refclock SOCK PATH`); nil: it sends none.
    public var chronySocket: String?
    /// `chronyMaxUncertainty`: the widest error bound (ms) of an estimate the agent sends to
    /// chronyd; a wider one is withheld, so a slow network never steers the clock.
    public var chronyMaxUncertaintyMs = 100.0
    /// A number of milliseconds as `chronyMaxUncertainty` reads it back: 100, 2.5.
    public static func millisecondsText(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
    /// `sync`: the URLs `conn agent` keeps fresh in `conn get`'s copies, refreshed with the inbox
    /// (every --sync-interval and on reconnecting).
    public var syncResources: [String] = []
    /// `cacheLimit`: the most `conn get`'s copies may hold together (the least recently used
    /// are evicted first).
    public var cacheLimitBytes = 256 << 20
    /// A size as `cacheLimit` reads it back: 256MiB, 1GiB, 1500KiB, 1000 (bytes).
    public static func byteSizeText(_ bytes: Int) -> String {
        for (suffix, size) in [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)] where bytes >= size && bytes % size == 0 {
            return "\(bytes / size)\(suffix)"
        }
        return String(bytes)
    }
    /// Reads `256MiB`, `256M`, `1GiB`, `64KiB`, `1000` (bytes); nil for anything else or a size
    /// outside 1 MiB…1 TiB.
    public static func byteSize(_ text: String) -> Int? {
        let written = text.trimmingBlanks()
        let units: [(String, Int)] = [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10), ("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10), ("B", 1)]
        var number = written, scale = 1
        for (suffix, size) in units where written.lowercased().hasSuffix(suffix.lowercased()) {
            number = String(written.dropLast(suffix.count)).trimmingBlanks()
            scale = size
            break
        }
        guard let value = Double(number), value.isFinite, value > 0 else { return nil }
        let bytes = value * Double(scale)
        guard bytes >= Double(1 << 20), bytes <= Double(1 << 40) else { return nil }
        return Int(bytes)
    }
    /// The plugins (by name, as in `conn NAME`) that get the token in `CONN_TOKEN`; others never do.
    public var pluginsWithToken: [String] = []
    /// The internet check's endpoints (`internetCheck`), each `URL[=STATUS[:TEXT]]` as
    /// `--internet-url` takes them: nil for conn's own (connectivitycheck.gstatic.com, 1.1.1.1,
    /// 2606:4700:4700::1111), empty for none (`off`). Where a network drops those (many corporate
    /// and hotel networks do), a check of its own that answers is truer than one that never does.
    public var internetCheck: [String]?
    /// conn's own internet check, as `internetCheck` would write it: one endpoint by name and one
    /// IP literal of each family, each answer-checked.
    public static let defaultInternetCheck = [
        "http://connectivitycheck.gstatic.com/generate_204=204",
        "http://1.1.1.1/cdn-cgi/trace=200:ip=",
        "http://[2606:4700:4700::1111]/cdn-cgi/trace=200:ip=",
    ]
    /// Which proxy each request takes (`proxy`, `noProxy`, and the environment's variables).
    public var proxy = ProxySettings()
    /// Which way out connections take (`--interface`, `-4`, `-6` of probe, watch, the agent, top
    /// and clock-offset); not a setting of the file.
    public var egress = Egress.any
    public var paths: ConnPaths
    /// Where each top-level value came from, keyed by config key (`server`, `resources.inbox`, …).
    public var sources: [String: ValueSource]
    /// Things worth telling the user that do not stop the command (unknown keys, loose permissions).
    public var warnings: [String]

    /// A configuration with every plain setting at its default.
    init(profile: String, configFile: String, configFileExists: Bool, backEnd: BackEndEndpoint?, paths: ConnPaths,
         sources: [String: ValueSource], warnings: [String]) {
        self.profile = profile
        self.configFile = configFile
        self.configFileExists = configFileExists
        self.backEnd = backEnd
        self.paths = paths
        self.sources = sources
        self.warnings = warnings
    }

    /// Where `resource` is: under the configured server, or its own full URL when no server is.
    public func url(for resource: BackEndResource) -> URL? {
        backEnd?.url(for: resource) ?? standaloneResources[resource]
    }

    /// A token that is not used because it belongs to another server than the one in effect.
    public var withheldToken: WithheldToken?

    /// The token bound to the configured server's origin: the only way a request gets it.
    public var credentials: Credentials? { Credentials(token: token, server: backEnd?.baseURL) }

    /// What to show in place of the token.
    public var redactedToken: String? { token == nil ? nil : "<redacted>" }

    public var timeoutSeconds: Double {
        let (seconds, attoseconds) = timeout.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
