/// How a conn-server runs: where it listens, what it stores, and which faults it injects.
public struct ServerOptions: Sendable {
    public var host = "127.0.0.1"
    /// 0 picks a free port; the chosen one is printed.
    public var port = 8080
    /// Required as `Authorization: Bearer <token>` on every resource but /health, when set.
    public var token: String?
    /// Who may sign in with `POST /session`: e-mail address → password.
    public var accounts: [String: String] = [:]
    /// How long a session's token is valid.
    public var sessionLifetime: Duration = .seconds(24 * 3600)
    /// A SQLite file that keeps the inbox and idempotency records across restarts; nil keeps them in memory.
    public var dataPath: String?
    /// An inbox in seed 003's JSON format to load at start.
    public var seedFile: String?
    /// Generate this many realistic e-mails in threads at start (at most `maximumGenerated`).
    public var generateCount = 0
    /// The most e-mails `--generate` makes: about 1 GB of memory, past any benchmark's need.
    public static let maximumGenerated = 1_000_000
    /// The sender of messages posted to /messages.
    public var userEmail = "me@conn.example"
    public var maxBodyBytes = 1024 * 1024
    /// A connection that sends nothing (not even the rest of a request's head) for this long is
    /// closed, so half-sent requests cannot hold the server's connections.
    public var idleTimeout: Duration = .seconds(30)
    /// A request's body and answer must be done within this long of its head: a client that
    /// trickles the body a byte a second renews the idle timeout with each byte, not this one.
    public var requestTimeout: Duration = .seconds(30)
    /// How long SIGTERM or SIGINT waits for the requests in flight before they are cut.
    public var shutdownGrace: Duration = .seconds(5)
    public var faults = FaultPlan()

    public init() {}
}

/// Faults to inject, for testing how clients cope.
public struct FaultPlan: Sendable, Equatable {
    /// Shift every time the server reports (t2/t3, WebSocket times, Date header) by this much.
    public var skewMS: Int64 = 0
    /// Wait this long before handling each request.
    public var latencyMS = 0
    /// The share of requests (0…1) answered 500 or 503 with Retry-After, without being processed.
    public var failRate = 0.0
    /// The share of requests (0…1) processed, then answered by closing the connection.
    public var dropResponseRate = 0.0
    /// Answer every request with a 200 HTML login page, as a captive portal does.
    public var portal = false
    /// Send the Date header of the moment the server started on every answer, as a caching
    /// proxy in front of a server does.
    public var frozenDate = false

    public init() {}
}
