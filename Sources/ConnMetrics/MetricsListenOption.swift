import ArgumentParser
import ConnCore
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
            help: ArgumentHelp("What GET /probe may reach: an address, a CIDR range (of targets written as addresses), a host or *.domain; repeat for more. Default: anything — an open relay for whoever reaches the listener.",
                               valueName: "pattern"),
            transform: { text in
                do { return try ProbeAllowList.parse(text) } catch { throw ValidationError((error as? ConnError)?.message ?? "\(error)") }
            })
    public var probeAllow: [ProbeAllowList.Pattern] = []

    public init() {}

    /// What /probe answers with these options and `configuration` (its timeout is the ceiling
    /// of a probe; --insecure applies).
    public func probeEndpoint(_ configuration: ConnConfiguration) -> ProbeEndpoint {
        ProbeEndpoint(allowed: ProbeAllowList(patterns: probeAllow), insecure: configuration.insecure, ceiling: configuration.timeout)
    }

    /// A warning when /probe is open to more than this machine and may reach anything, or nil.
    public var openRelayWarning: String? {
        guard let address, probeAllow.isEmpty, !["127.0.0.1", "::1"].contains(address.host), !address.host.hasPrefix("127.") else { return nil }
        return "GET /probe on \(address) may reach any target for whoever reaches this port; limit it with --probe-allow"
    }
}
