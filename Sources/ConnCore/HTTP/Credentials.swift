import Foundation

/// The bearer token and the one origin it may be sent to: the configured server's.
///
/// Every path that authenticates (HTTP requests, the WebSocket link, probes) asks
/// `authorization(for:)`, so a URL given on the command line, a resource moved to another host or
/// a redirect can never carry the token to a third party.
public struct Credentials: Sendable, Equatable {
    public let token: String
    public let origin: Origin

    public init(token: String, origin: Origin) {
        self.token = token
        self.origin = origin
    }

    /// The configured server's credentials, when both a token and a server are configured.
    public init?(token: String?, server: URL?) {
        guard let token, !token.isEmpty, let server, let origin = Origin(server) else { return nil }
        self.init(token: token, origin: origin)
    }

    /// The `Authorization` header value for a request to `url`: nil unless `url` is on the origin.
    public func authorization(for url: URL) -> String? {
        Origin(url) == origin ? "Bearer \(token)" : nil
    }
}
