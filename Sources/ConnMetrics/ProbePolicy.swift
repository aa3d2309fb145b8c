import ConnCore
import ConnProbe
import Foundation

/// Who `GET /probe` may reach. A listener is not a relay for whoever reaches it:
///
/// - by default, only the configured server's origin and the monitor's own targets: their host
///   *and* port (another port of the server's host is another service);
/// - besides them, what `--probe-allow` names;
/// - loopback, link-local and cloud metadata addresses (127.0.0.0/8, ::1, 169.254.0.0/16,
///   fe80::/10, 100.100.100.200, fd00:ec2::254), written as such or reached through a name, only
///   when named as addresses: the configured server's own origin, an exact `--probe-allow`
///   address, or a range inside the special one (`169.254.0.0/16`, not `0.0.0.0/0`). A host
///   name in `--probe-allow` does not name the addresses it resolves to (DNS rebinding: the
///   name's owner decides where it leads);
/// - on a listener other machines can reach with neither `--probe-allow` nor
///   `--web-config-file`, not at all (403, and a warning at start).
///
/// The addresses judged are the ones the probe connects to: `ProbeEndpoint` resolves the name
/// once and hands the answer to the prober, so no second lookup comes between check and use.
public struct ProbePolicy: Sendable {
    public enum Decision: Sendable, Equatable {
        case allowed
        case refused(String)
    }

    /// A host and a port the configuration names.
    public struct Endpoint: Sendable, Hashable, CustomStringConvertible {
        public let host: String
        public let port: Int

        public init(host: String, port: Int) {
            self.host = AddressBytes.unbracketed(host).lowercased()
            self.port = port
        }

        public var description: String { "\(host.contains(":") ? "[\(host)]" : host):\(port)" }
    }

    let allowList: ProbeAllowList
    /// What the configuration names: the server's origin, the monitor's targets.
    let named: Set<Endpoint>
    /// /probe is off (a listener open to other machines, with nothing limiting it).
    let closed: Bool

    public init(allowList: ProbeAllowList, named: Set<Endpoint>, closed: Bool) {
        self.allowList = allowList
        self.named = named
        self.closed = closed
    }

    /// `addresses`: what the host resolves to, as the probe will connect (the host itself when
    /// it is an address).
    public func decide(host written: String, port: Int, addresses: [String]) -> Decision {
        if closed {
            return .refused("GET /probe is off on a listener other machines can reach: limit it with --probe-allow, or protect it with --web-config-file")
        }
        let target = Endpoint(host: written, port: port)
        if named.contains(target) { return .allowed }
        let host = target.host
        guard !allowList.patterns.isEmpty, allowList.allows(host) else {
            if let server = named.first(where: { $0.host == host }) {
                return .refused("target \(MetricsEndpoint.printable(target.description)) is another port of \(MetricsEndpoint.printable(server.description))'s host: /probe reaches the configured server's origin, not every service beside it (--probe-allow \(MetricsEndpoint.printable(host)) allows its other ports)")
            }
            return .refused("target \(MetricsEndpoint.printable(target.description)) is neither the configured server nor in --probe-allow")
        }
        // Every address the probe may connect to, not only the first: Happy Eyeballs tries them all.
        for address in addresses + [host] {
            guard let range = Self.specialRange(of: address) else { continue }
            if !allowList.coversWithin(address, range: range) {
                let shown = MetricsEndpoint.printable(host)
                return .refused("target \(shown) is \(address == host ? "" : "at \(address), ")a \(range.kind) address: allowed only when named as an address (--probe-allow \(address))")
            }
        }
        return .allowed
    }

    /// A special range an address lies in, or nil.
    static func specialRange(of address: String) -> (network: [UInt8], prefix: Int, kind: String)? {
        guard let bytes = AddressBytes.parse(AddressBytes.unbracketed(address)) else { return nil }
        for range in specialRanges {
            let (network, prefix, _) = range
            if network.count == bytes.count, AddressBytes.samePrefix(bytes, network, bits: prefix) { return range }
        }
        // An IPv4 address mapped into IPv6 (::ffff:169.254.169.254) is that address.
        if bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff {
            return specialRange(of: bytes[12...].map(String.init).joined(separator: "."))
        }
        return nil
    }

    static let specialRanges: [(network: [UInt8], prefix: Int, kind: String)] = [
        ([169, 254, 169, 254], 32, "cloud metadata"), ([100, 100, 100, 200], 32, "cloud metadata"),
        (AddressBytes.parse("fd00:ec2::254")!, 128, "cloud metadata"),
        ([127, 0, 0, 0], 8, "loopback"), (AddressBytes.parse("::1")!, 128, "loopback"),
        ([169, 254, 0, 0], 16, "link-local"), (AddressBytes.parse("fe80::")!, 10, "link-local"),
        ([0, 0, 0, 0], 8, "this-network"),
    ]
}

extension ProbeAllowList {
    /// Whether a range pattern inside `range` (as narrow or narrower) covers `address`: who
    /// writes 169.254.0.0/16 means link-local; who writes 0.0.0.0/0 does not.
    func coversWithin(_ address: String, range: (network: [UInt8], prefix: Int, kind: String)) -> Bool {
        guard let bytes = AddressBytes.parse(AddressBytes.unbracketed(address)) else { return false }
        return patterns.contains { pattern in
            guard case .network(let network, let prefix) = pattern, network.count == bytes.count, prefix >= range.prefix else { return false }
            return AddressBytes.samePrefix(bytes, network, bits: prefix)
        }
    }
}
