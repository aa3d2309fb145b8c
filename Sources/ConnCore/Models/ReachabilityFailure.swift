/// The first layer at which reaching a target failed.
public enum ReachabilityFailure: String, Sendable, Codable, CaseIterable {
    /// The name does not resolve.
    case nxdomain
    /// There is no route to the address.
    case noRoute
    /// The route leaves by an interface that has no carrier (cable out, Wi-Fi not associated,
    /// the link's other end down): nothing can pass, whatever the routing table says.
    case noCarrier
    /// The host answered with a reset: it is up, but nothing listens on that port.
    case refused
    /// Nothing answered within the deadline.
    case timeout
    /// The TLS handshake failed (certificate, protocol).
    case tlsError
    /// The server answered with an unexpected HTTP status.
    case httpStatus
    /// The server answered, but not with what was expected (a captive portal, another service).
    case unexpectedBody
    /// An HTML page answered in place of the configured server, or its health resource
    /// redirected to another origin: a captive portal (or a proxy).
    case portal
    /// The target answered with a redirect to another origin (or past the most redirects
    /// followed within one): it answered, but not itself.
    case redirected
    /// The proxy the target is reached through cannot be reached (its name, route or port).
    case proxyUnreachable
    /// The proxy wants credentials (407) that were not given, or not these.
    case proxyAuthRequired
    /// The proxy refused the tunnel to the target (403, 502, …) or answered something else.
    case proxyRefused
    /// The proxy in between could not reach the target and did not say why (tinyproxy's
    /// "Unable to connect", a 502 to CONNECT): the target's failure, of no known kind.
    case unreachable

    /// A sentence that explains the verdict to a person.
    public var explanation: String {
        switch self {
        case .nxdomain: "the name does not resolve"
        case .noRoute: "there is no route to the host"
        case .noCarrier: "the interface the route leaves by has no carrier (cable out, link down)"
        case .refused: "the host is up, but nothing is listening on that port"
        case .timeout: "nothing answered in time"
        case .tlsError: "the TLS handshake failed"
        case .httpStatus: "the server answered with an unexpected HTTP status"
        case .unexpectedBody: "the server answered, but not with the expected content"
        case .portal: "a sign-in page answered in place of the server: a captive portal or a proxy is in the way"
        case .redirected: "the target redirected to another site, which conn does not take for an answer"
        case .proxyUnreachable: "the proxy cannot be reached"
        case .proxyAuthRequired: "the proxy wants credentials (407)"
        case .proxyRefused: "the proxy refused the way to the target"
        case .unreachable: "the proxy could not reach the target, and did not say why"
        }
    }
}
