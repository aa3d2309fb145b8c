/// How the offset is measured.
public enum ClockMethod: String, Sendable, Codable, CaseIterable {
    /// The best available: json from the configured server, else http-date.
    case auto
    /// The server's /time resource: t2 and t3 in ms, over one kept-alive connection.
    case json
    /// ping/pong with timestamps on the server's WebSocket.
    case ws
    /// Any HTTP server's Date header, refined by timing requests around its second boundary.
    case httpDate = "http-date"
    /// An NTP server (SNTP, RFC 4330).
    case sntp
}
