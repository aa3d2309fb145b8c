import ArgumentParser
import ConnCore
import ConnProbe
import Foundation

/// `--metrics-listen ADDRESS`, shared by `conn watch` and `conn agent`.
public struct MetricsListenOption: ParsableArguments {
    @Option(name: .customLong("metrics-listen"),
            help: ArgumentHelp("Serve Prometheus metrics at http://ADDRESS/metrics: a port (on 127.0.0.1; 0 picks a free one and says which), HOST:PORT or [IPv6]:PORT; all interfaces only when written (0.0.0.0:9464).",
                               valueName: "address"),
            transform: { text in
                do { return try ListenAddress.parse(text) } catch { throw ValidationError("\(error)") }
            })
    public var address: ListenAddress?

    @Option(name: .customLong("probe-allow"),
            help: ArgumentHelp("What GET /probe may reach besides the configured server's origin: an address, a CIDR range (of targets written as addresses), a host or *.domain, any port; repeat for more. Loopback, link-local and metadata addresses (written, or where a name leads) only when named as an address or a range within theirs.",
                               valueName: "pattern"),
            transform: { text in
                do { return try ProbeAllowList.parse(text) } catch { throw ValidationError((error as? ConnError)?.message ?? "\(error)") }
            })
    public var probeAllow: [ProbeAllowList.Pattern] = []

    @Option(name: .customLong("metrics-buckets"),
            help: ArgumentHelp("The bounds of conn_probe_duration_seconds's histogram buckets, in seconds, increasing (default: Prometheus's, 0.005 to 10).",
                               valueName: "list"),
            transform: { text in
                do { return try ProbeHistory.parseBuckets(text) } catch { throw ValidationError("\(error)") }
            })
    public var buckets: [Double] = ProbeHistory.defaultBuckets

    @Option(name: .customLong("web-config-file"),
            help: ArgumentHelp("TLS and basic authentication for the listener, in the Prometheus exporter toolkit's format (tls_server_config: cert_file, key_file, min_version; basic_auth_users: user: bcrypt hash).",
                               valueName: "path"),
            completion: .file())
    public var webConfigFile: String?

    public init() {}

    public func validate() throws {
        if webConfigFile != nil, address == nil {
            throw ValidationError("--web-config-file protects the listener of --metrics-listen: give that too")
        }
    }

    /// What /probe answers with these options and `configuration` (its timeout is the ceiling
    /// of a probe; --insecure applies): the configured server and `targets` (the monitor's own)
    /// are named; --probe-allow adds to them.
    public func probeEndpoint(_ configuration: ConnConfiguration, targets: [ProbeTarget] = [], access: WebConfig? = nil) -> ProbeEndpoint {
        var named = Set(targets.map { ProbePolicy.Endpoint(host: $0.host, port: $0.port) })
        if let backEnd = configuration.backEnd {
            let server = ProbeTarget.server(backEnd)
            named.insert(ProbePolicy.Endpoint(host: server.host, port: server.port))
        }
        let policy = ProbePolicy(allowList: ProbeAllowList(patterns: probeAllow), named: named, closed: probeClosed(access: access))
        return ProbeEndpoint(policy: policy, trust: configuration.serverTrust, ceiling: configuration.timeout, proxies: configuration.proxy)
    }

    /// Whether the listener can be reached from other machines (not a loopback address).
    var reachableFromOutside: Bool {
        guard let address else { return false }
        return !(address.host == "::1" || address.host == "localhost" || address.host.hasPrefix("127."))
    }

    /// /probe is off: reachable from outside, with nothing limiting it (no --probe-allow, no
    /// users to sign in as).
    func probeClosed(access: WebConfig?) -> Bool { reachableFromOutside && probeAllow.isEmpty && (access?.users.isEmpty ?? true) }

    /// A warning when the listener is open to other machines with nothing limiting /probe, or nil.
    public func openRelayWarning(access: WebConfig?) -> String? {
        guard probeClosed(access: access), let address else { return nil }
        return "\(address) can be reached from other machines: GET /probe answers 403 there until --probe-allow names what it may reach, or --web-config-file asks for a user (/metrics is served)"
    }

    /// The web configuration of --web-config-file, read and checked (78 when it cannot be used).
    public func webConfig() throws -> WebConfig? {
        try webConfigFile.map(WebConfig.load)
    }
}
