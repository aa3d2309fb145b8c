import Foundation

/// A web origin (RFC 6454): scheme, host and port. Credentials are bound to one, and redirects
/// are judged by whether they leave it. `ws`/`wss` count as `http`/`https`: the WebSocket
/// resource lives on the same server as the others.
public struct Origin: Hashable, Sendable, CustomStringConvertible {
    /// `http` or `https`.
    public let scheme: String
    /// Lower-cased; an IPv6 literal without brackets.
    public let host: String
    public let port: Int

    public init?(_ url: URL) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased(), let host = components.host?.lowercased(), !host.isEmpty
        else { return nil }
        switch scheme {
        case "http", "ws": self.scheme = "http"
        case "https", "wss": self.scheme = "https"
        default: return nil
        }
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        self.port = components.port ?? (self.scheme == "https" ? 443 : 80)
    }

    /// The host as a URL or a Host header writes it: an IPv6 literal in brackets.
    public var urlHost: String { host.contains(":") ? "[\(host)]" : host }

    public var description: String { "\(scheme)://\(urlHost):\(port)" }
}
