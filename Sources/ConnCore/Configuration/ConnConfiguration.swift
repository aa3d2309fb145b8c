import Foundation

/// The resolved configuration a command runs with: every value validated, each with its source.
public struct ConnConfiguration: Sendable {
    /// The profile in use (`default` unless chosen).
    public var profile: String
    /// The config file that was read (or would be, if it does not exist).
    public var configFile: String
    public var configFileExists: Bool
    /// The app's back end, if one is configured.
    public var backEnd: BackEndEndpoint?
    public var email: String?
    /// The bearer token. Never printed: use `redactedToken` for display.
    public var token: String?
    public var format: OutputFormat
    public var color: ColorMode
    /// The deadline for one network operation.
    public var timeout: Duration
    /// Accept TLS certificates that do not verify (self-signed test servers). Off unless asked for.
    public var insecure: Bool
    /// How long the outbox keeps retrying a message before marking it failed(expired).
    public var outboxExpiry: Duration
    /// The plugins (by name, as in `conn NAME`) that get the token in `CONN_TOKEN`; others never do.
    public var pluginsWithToken: [String]
    public var paths: ConnPaths
    /// Where each top-level value came from, keyed by config key (`server`, `resources.inbox`, …).
    public var sources: [String: ValueSource]
    /// Things worth telling the user that do not stop the command (unknown keys, loose permissions).
    public var warnings: [String]

    /// The token bound to the configured server's origin: the only way a request gets it.
    public var credentials: Credentials? { Credentials(token: token, server: backEnd?.baseURL) }

    /// What to show in place of the token.
    public var redactedToken: String? { token == nil ? nil : "<redacted>" }

    public var timeoutSeconds: Double {
        let (seconds, attoseconds) = timeout.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
