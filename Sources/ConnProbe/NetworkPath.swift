import ConnCore

/// The way out of this host as the routing table has it now (what NWPathMonitor calls the
/// path): which interface the default route of each address family leaves by, and whether each
/// family has a route to the internet at all. Read with a UDP socket `connect()`ed to a public
/// address of each family — no packet is sent — so it costs a few syscalls per look.
public struct NetworkPath: Sendable, Equatable {
    /// The interface of the IPv4 default route, else of the IPv6 one; nil with neither.
    public var interface: ProbeInterface?
    /// Whether IPv4 (IPv6) has a route to the internet.
    public var ipv4Route: Bool
    public var ipv6Route: Bool

    public init(interface: ProbeInterface?, ipv4Route: Bool, ipv6Route: Bool) {
        self.interface = interface
        self.ipv4Route = ipv4Route
        self.ipv6Route = ipv6Route
    }

    /// Public addresses whose route is the default route (Cloudflare's resolvers; never contacted).
    static let internetAddresses = [ResolvedAddress(family: 4, ip: "1.1.1.1", port: 53),
                                    ResolvedAddress(family: 6, ip: "2606:4700:4700::1111", port: 53)]

    static func current(routes: RouteCache) -> NetworkPath {
        let routed = internetAddresses.map { address in
            if case .success = routes.route(to: address) { true } else { false }
        }
        return NetworkPath(interface: internetAddresses.lazy.compactMap(routes.interface(to:)).first, ipv4Route: routed[0], ipv6Route: routed[1])
    }
}
