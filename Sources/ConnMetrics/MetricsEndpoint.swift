import Foundation
import NIOHTTP1

/// What `--metrics-listen` serves: `GET /metrics` (the exposition of `snapshot()`), `GET /probe`
/// (the blackbox exporter's endpoint, `ProbeEndpoint`), a short index at `/`, 404 for other
/// paths and 405 for methods other than GET and HEAD.
public struct MetricsEndpoint: Sendable {
    let snapshot: @Sendable () async -> MetricsSnapshot
    let version: String
    let commit: String
    let probe: ProbeEndpoint
    /// Who may ask (basic_auth_users of --web-config-file): everyone when nil or without users.
    let access: WebConfig?

    /// `snapshot` is asked at each scrape; the commit is this build's.
    public init(version: String, probe: ProbeEndpoint, access: WebConfig? = nil, snapshot: @escaping @Sendable () async -> MetricsSnapshot) {
        self.snapshot = snapshot
        self.probe = probe
        self.access = access
        self.version = version
        self.commit = BuildInfo.commit
    }

    public func respond(_ request: MetricsServer.Request) async -> MetricsServer.Response {
        if let access, !access.authorizes(request.headers.first(name: "Authorization")) {
            return .init(status: .unauthorized, body: "this listener wants a user and password (basic_auth_users of --web-config-file)\n",
                         headers: [("WWW-Authenticate", #"Basic realm="conn""#)])
        }
        guard request.method == .GET || request.method == .HEAD else {
            return .init(status: .methodNotAllowed, body: "only GET and HEAD are answered here\n")
        }
        switch request.path {
        case "/metrics":
            let text = MetricsExposition.render(await snapshot(), version: version, commit: commit)
            // Prometheus asks for OpenMetrics first; anything else gets the 0.0.4 text format.
            if OpenMetrics.isPreferred(byAccept: request.headers.first(name: "Accept")) {
                return .init(status: .ok, contentType: OpenMetrics.contentType, body: OpenMetrics.convert(text))
            }
            return .init(status: .ok, contentType: MetricsExposition.contentType, body: text)
        case "/probe":
            return await probe.respond(request)
        case "/":
            return .init(status: .ok, body: "conn metrics: GET /metrics (Prometheus text format 0.0.4); GET /probe?target=…&module=http_2xx|tcp_connect (as the blackbox exporter)\n")
        default:
            return .init(status: .notFound, body: "no such resource: \(Self.printable(request.path)); GET /metrics and /probe are\n")
        }
    }

    /// A path echoed back: printable ASCII only, at most 200 characters.
    static func printable(_ path: String) -> String {
        String(path.unicodeScalars.prefix(200).map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7f ? Character($0) : "?" })
    }
}
