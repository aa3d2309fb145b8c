import Foundation

/// Which proxy a request takes, and why, as people set proxies: `--proxy` (or the `proxy`
/// setting: the config file, CONN_PROXY) for every request, an empty one meaning none; else the
/// environment as curl and Go read it — `http_proxy`, then `HTTP_PROXY` unless `REQUEST_METHOD`
/// is set (a CGI program's environment comes from its client: Go's rule), for http and ws URLs;
/// `https_proxy`/`HTTPS_PROXY` for https and wss; `all_proxy`/`ALL_PROXY` for either; lower case
/// first. `--noproxy` (or `noProxy`), else `no_proxy`/`NO_PROXY`, lists where to go direct.
/// Loopback is proxied like any host unless the list names it (curl's rule).
///
/// A proxy URL that does not parse is a usage error (64) naming the variable, raised when a
/// request would use it, so `conn config show` can still show it.
public struct ProxySettings: Sendable, Equatable {
    /// A value and where it came from (`--proxy`, `HTTPS_PROXY (environment)`).
    public struct Setting: Sendable, Equatable {
        public var text: String
        public var source: String
        public init(text: String, source: String) {
            self.text = text
            self.source = source
        }
    }

    /// `--proxy`/`proxy`: for every request ("" for none).
    public var explicitProxy: Setting?
    /// `--noproxy`/`noProxy`.
    public var explicitNoProxy: Setting?
    /// The proxy variables of the environment (and REQUEST_METHOD), nothing else.
    public var environment: [String: String]
    /// What an https:// proxy's certificate is checked against.
    public var trust: ProxyTrust = .system

    public static let variables = ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY",
                                   "no_proxy", "NO_PROXY", "REQUEST_METHOD"]

    public init(explicitProxy: Setting? = nil, explicitNoProxy: Setting? = nil, environment: [String: String] = [:]) {
        self.explicitProxy = explicitProxy
        self.explicitNoProxy = explicitNoProxy
        self.environment = environment.filter { Self.variables.contains($0.key) }
    }

    /// No proxy for anything: what tests and the probe of `/probe` use.
    public static let none = ProxySettings()

    /// The proxy for `url` (nil: direct) and a sentence saying why.
    public struct Decision: Sendable, Equatable {
        public var server: ProxyServer?
        public var reason: String
        /// The setting the proxy came from, for messages about it.
        public var source: String?
    }

    public func decision(for url: URL) throws -> Decision {
        let secure = ["https", "wss"].contains(url.scheme?.lowercased() ?? "")
        guard let chosen = proxySetting(secure: secure) else {
            return Decision(server: nil, reason: "no proxy is set (--proxy, proxy, or \(secure ? "https_proxy" : "http_proxy")/all_proxy)")
        }
        if chosen.text.trimmingBlanks().isEmpty {
            return Decision(server: nil, reason: "\(chosen.source) is empty: no proxy")
        }
        var server = try ProxyServer.parse(chosen.text, from: chosen.source)
        server.trust = trust
        if let exceptions = noProxySetting(), let host = url.host {
            let port = url.port ?? (secure ? 443 : 80)
            if NoProxyList(exceptions.text).matches(host: host, port: port) {
                return Decision(server: nil, reason: "\(exceptions.source) lists \(host): no proxy", source: exceptions.source)
            }
        }
        return Decision(server: server, reason: "from \(chosen.source)", source: chosen.source)
    }

    /// The proxy setting that applies to a URL of this kind, before the exceptions.
    func proxySetting(secure: Bool) -> Setting? {
        if let explicitProxy { return explicitProxy }
        var names = secure ? ["https_proxy", "HTTPS_PROXY"] : ["http_proxy"]
        if !secure, environment["REQUEST_METHOD"] == nil { names.append("HTTP_PROXY") }
        names += ["all_proxy", "ALL_PROXY"]
        for name in names {
            if let text = environment[name], !text.isEmpty { return Setting(text: text, source: "environment variable \(name)") }
        }
        return nil
    }

    func noProxySetting() -> Setting? {
        if let explicitNoProxy { return explicitNoProxy }
        for name in ["no_proxy", "NO_PROXY"] {
            if let text = environment[name], !text.isEmpty { return Setting(text: text, source: "environment variable \(name)") }
        }
        return nil
    }
}
