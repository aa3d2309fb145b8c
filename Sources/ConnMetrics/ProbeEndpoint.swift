import ConnCore
import ConnProbe
import Foundation
import NIOHTTP1
import Prometheus

/// `GET /probe?target=…&module=…`, answered as the Prometheus blackbox exporter answers it, so an
/// existing blackbox scrape configuration works by changing only the exporter's address. The
/// probe ladder runs once per request, within the scrape's own timeout, and never sends
/// credentials: a scrape may name anyone's server.
public struct ProbeEndpoint: Sendable {
    /// The blackbox modules understood: `http_2xx` (a GET, success on a 2xx answer) and
    /// `tcp_connect` (a TCP connection).
    public static let modules = ["http_2xx", "tcp_connect"]

    let policy: ProbePolicy
    let trust: ServerTrust
    /// The longest a probe may take, whatever the scrape allows.
    let ceiling: Duration
    /// The proxies of conn's configuration (the blackbox exporter's `proxy_url`): a URL target
    /// goes through the one its settings give, as every probe of conn's does.
    let proxies: ProxySettings

    public init(policy: ProbePolicy, trust: ServerTrust, ceiling: Duration, proxies: ProxySettings = .none) {
        self.policy = policy
        self.trust = trust
        self.ceiling = ceiling
        self.proxies = proxies
    }

    public func respond(_ request: MetricsServer.Request) async -> MetricsServer.Response {
        let module = request.query["module"] ?? "http_2xx"
        guard Self.modules.contains(module) else {
            return .init(status: .badRequest, body: "unknown module \(MetricsEndpoint.printable(module)): use http_2xx or tcp_connect\n")
        }
        guard let text = request.query["target"], !text.isEmpty else {
            return .init(status: .badRequest, body: "target parameter is missing\n")
        }
        let target: ProbeTarget
        do {
            target = try Self.target(text, module: module)
        } catch {
            return .init(status: .badRequest, body: "target \(MetricsEndpoint.printable(text)) is not a URL or host:port: \(Self.reason(error))\n")
        }
        // A name is looked up once: where it leads (a loopback or metadata address?) decides,
        // and the probe connects to exactly those addresses (no second lookup to rebind).
        // Through a proxy, the proxy resolves the name: the check is of what it resolves to here.
        let host = AddressBytes.unbracketed(target.host)
        let settled = AddressBytes.parse(host) == nil ? await SettledNames.resolving(host, port: target.port, timeout: min(ceiling, .seconds(2))) : nil
        let addresses = settled.map { $0.addresses(of: host) } ?? [host]
        if case .refused(let reason) = policy.decide(host: host, port: target.port, addresses: addresses) {
            return .init(status: .forbidden, body: reason + "\n")
        }
        let timeout = Self.timeout(scrapeTimeout: request.headers.first(name: "X-Prometheus-Scrape-Timeout-Seconds"), ceiling: ceiling)
        let expectation = module == "http_2xx" ? Prober.Expectation(statuses: Set(200...299)) : Prober.Expectation()
        let result = await Prober(timeout: timeout, trust: trust, expectation: expectation, credentials: nil, proxies: proxies,
                                  settledNames: settled).probe(target)
        return .init(status: .ok, contentType: MetricsExposition.contentType, body: Self.render(result, module: module))
    }

    /// A target as the blackbox exporter takes it: http_2xx adds `http://` to one without a
    /// scheme; tcp_connect wants host:port.
    static func target(_ text: String, module: String) throws -> ProbeTarget {
        if module == "http_2xx" {
            return try ProbeTarget.parse(text.contains("://") ? text : "http://" + text)
        }
        let target = try ProbeTarget.parse(text)
        guard case .hostPort = target.kind else {
            throw ConnError.usage("tcp_connect takes host:port, not a URL")
        }
        return target
    }

    /// The scrape's deadline less half a second for the answer to travel (as the blackbox
    /// exporter does), at least half a second, at most `ceiling`; `ceiling` without the header
    /// or with one that is not a number of seconds.
    static func timeout(scrapeTimeout header: String?, ceiling: Duration) -> Duration {
        guard let header, let seconds = Double(header.trimmingCharacters(in: .whitespaces)), seconds.isFinite, seconds > 0 else {
            return ceiling
        }
        let usable = max(0.5, min(seconds - 0.5, ceiling.seconds))
        return .milliseconds(Int64(usable * 1000))
    }

    private static func reason(_ error: any Error) -> String {
        (error as? ConnError)?.message ?? "\(error)"
    }

    /// The blackbox exporter's families for one result (0.23's set, with its meanings and its
    /// zeros where a probe ended early), and conn's verdict. Not written: the verified chain's
    /// expiry and info (`probe_ssl_last_chain_*`): the handshake does not keep the chain.
    static func render(_ result: ProbeResult, module: String) -> String {
        let registry = PrometheusCollectorRegistry()
        // A phase summed over the redirects followed, as blackbox sums it.
        let rung = { (name: String) in result.rungs.filter { $0.name == name }.compactMap(\.ms).reduce(0, +) / 1000 }
        registry.setGauge("probe_success", "Displays whether or not the probe was a success", [], result.reachable ? 1 : 0)
        registry.setGauge("probe_duration_seconds", "Returns how long the probe took to complete in seconds", [], result.totalMs / 1000)
        registry.setGauge("probe_dns_lookup_time_seconds", "Returns the time taken for probe dns lookup in seconds", [], rung("dns"))
        registry.setGauge("probe_failed_due_to_regex", "Indicates if probe failed due to regex", [], 0)  // neither module has one
        let address = Self.addressTried(result)
        registry.setGauge("probe_ip_protocol", "Specifies whether probe ip protocol is IP4 or IP6", [],
                          address.map { AddressBytes.parse($0)?.count == 16 ? 6 : 4 } ?? 0)
        registry.setGauge("probe_ip_addr_hash", "Specifies the hash of IP address. It's useful to detect if the IP address changes.", [],
                          address.map { Double(Self.fnv1a32(AddressBytes.parse($0) ?? [])) } ?? 0)
        if module == "http_2xx" {
            let response = result.response
            registry.setGauge("probe_http_status_code", "Response HTTP status code", [], Double(result.httpStatus ?? 0))
            registry.setGauge("probe_http_version", "Returns the version of HTTP of the probe response", [],
                              response.flatMap { Double($0.httpVersion) } ?? 0)
            registry.setGauge("probe_http_ssl", "Indicates if SSL was used for the final redirect", [], response?.tls == true ? 1 : 0)
            registry.setGauge("probe_http_redirects", "The number of redirects", [], Double(response?.redirects ?? 0))
            registry.setGauge("probe_http_content_length", "Length of http content response", [],
                              response.map { Double($0.contentLength ?? Self.undeclaredLength(status: result.httpStatus)) } ?? 0)
            registry.setGauge("probe_http_uncompressed_body_length", "Length of uncompressed response body", [], Double(response?.bodyBytes ?? 0))
            // transfer: the judged answer's body, from its first byte; processing: the rest (blackbox's split).
            let last = (result.rungs.last { $0.name == "http" }?.ms ?? 0) / 1000
            let transfer = response.map { max(0, last - $0.firstByteMs / 1000) } ?? 0
            let phases = [("resolve", rung("dns")), ("connect", rung("tcp")), ("tls", rung("tls")), ("processing", rung("http") - transfer), ("transfer", transfer)]
            for (phase, seconds) in phases {
                registry.setGauge("probe_http_duration_seconds", "Duration of http request by phase, summed over all redirects",
                                  [("phase", phase)], seconds)
            }
        }
        if let certificate = result.certificate {
            registry.setGauge("probe_ssl_earliest_cert_expiry", "Returns last SSL chain expiry in unixtime", [], certificate.notValidAfter.timeIntervalSince1970)
            if let version = certificate.tlsVersion {
                registry.setGauge("probe_tls_version_info", "Returns the TLS version used or NaN when unknown", [("version", version)], 1)
            }
        }
        registry.setGauge("conn_probe_verdict", "conn's verdict on the target: reachable, or the first layer that failed (always 1)",
                          [("verdict", result.verdict)], 1)
        return registry.emitToString()
    }

    /// The address the probe went to: the one it connected to, else the first the name gave
    /// (the DNS rung lists them, ", "-separated), or the host written as one. nil when the name
    /// did not resolve.
    static func addressTried(_ result: ProbeResult) -> String? {
        result.address ?? result.resolvedAddress
    }

    /// Go's `resp.ContentLength` for an answer that declared none: 0 where the status has no
    /// body (1xx, 204, 304), else -1 (unknown).
    static func undeclaredLength(status: Int?) -> Int {
        guard let status else { return -1 }
        return (100..<200).contains(status) || status == 204 || status == 304 ? 0 : -1
    }

    /// FNV-1a, 32 bits, of the address's bytes: the blackbox exporter's `probe_ip_addr_hash`.
    static func fnv1a32(_ bytes: [UInt8]) -> UInt32 {
        bytes.reduce(UInt32(0x811c_9dc5)) { ($0 ^ UInt32($1)) &* 0x0100_0193 }
    }
}

/// `--probe-allow`: which targets `/probe` may reach. Empty: any (an open relay for whoever can
/// reach the listener — keep it on loopback then). A pattern is an IP address, a CIDR range
/// (`10.0.0.0/8`, `fd00::/8`: matched against a target written as an address), a host name
/// (`api.example.com`) or a domain (`*.example.com`: its subdomains).
public struct ProbeAllowList: Sendable, Equatable {
    public enum Pattern: Sendable, Equatable {
        case network(address: [UInt8], prefix: Int)
        case host(String)
        case domain(String)
    }

    public var patterns: [Pattern]

    public init(patterns: [Pattern] = []) { self.patterns = patterns }

    public static func parse(_ text: String) throws -> Pattern {
        let written = text.trimmingCharacters(in: .whitespaces).lowercased()
        if written.hasPrefix("*.") {
            let domain = String(written.dropFirst(2))
            guard !domain.isEmpty, !domain.contains("*") else { throw ConnError.usage("'\(text)' is not a pattern: write *.example.com") }
            return .domain(domain)
        }
        let parts = written.split(separator: "/", omittingEmptySubsequences: false)
        if let bytes = AddressBytes.parse(String(parts[0])) {
            let prefix = parts.count == 2 ? Int(parts[1]) : bytes.count * 8
            guard parts.count <= 2, let prefix, (0...(bytes.count * 8)).contains(prefix) else {
                throw ConnError.usage("'\(text)' is not an address or CIDR range: the prefix length must be 0-\(bytes.count * 8)")
            }
            return .network(address: bytes, prefix: prefix)
        }
        guard parts.count == 1, !written.isEmpty, written.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." }) else {
            throw ConnError.usage("'\(text)' is not an address, a CIDR range, a host name or *.domain")
        }
        return .host(written)
    }

    public func allows(_ host: String) -> Bool {
        guard !patterns.isEmpty else { return true }
        let host = host.lowercased()
        let bytes = AddressBytes.parse(host)
        return patterns.contains { pattern in
            switch pattern {
            case .host(let name): return host == name
            case .domain(let domain): return host.hasSuffix("." + domain)
            case .network(let network, let prefix):
                guard let bytes, bytes.count == network.count else { return false }
                return AddressBytes.samePrefix(bytes, network, bits: prefix)
            }
        }
    }
}
