import ConnCore
import ConnProbe
import Foundation

/// Who `GET /probe` may reach. A listener is not a relay for whoever reaches it:
///
/// - by default, only the configured server (and the monitor's own targets);
/// - besides them, what `--probe-allow` names;
/// - loopback, link-local and cloud metadata addresses (127.0.0.0/8, ::1, 169.254.0.0/16,
///   fe80::/10, 100.100.100.200, fd00:ec2::254), written as such or reached through a name, only
///   when named: the configured server's own host, an exact `--probe-allow` address or host, or
///   a range inside the special one (`169.254.0.0/16`, not `0.0.0.0/0`);
/// - on a listener other machines can reach with neither `--probe-allow` nor
///   `--web-config-file`, not at all (403, and a warning at start).
public struct ProbePolicy: Sendable {
    public enum Decision: Sendable, Equatable {
        case allowed
        case refused(String)
    }

    let allowList: ProbeAllowList
    /// Hosts the configuration names: the server, the monitor's targets.
    let namedHosts: Set<String>
    /// /probe is off (a listener open to other machines, with nothing limiting it).
    let closed: Bool

    public init(allowList: ProbeAllowList, namedHosts: Set<String>, closed: Bool) {
        self.allowList = allowList
        self.namedHosts = Set(namedHosts.map { AddressBytes.unbracketed($0).lowercased() })
        self.closed = closed
    }

    /// `addresses`: what the host resolves to (the host itself when it is an address).
    public func decide(host written: String, addresses: [String]) -> Decision {
        if closed {
            return .refused("GET /probe is off on a listener other machines can reach: limit it with --probe-allow, or protect it with --web-config-file")
        }
        let host = AddressBytes.unbracketed(written).lowercased()
        let named = namedHosts.contains(host) || allowList.names(host)
        guard named || (!allowList.patterns.isEmpty && allowList.allows(host)) else {
            return .refused("target \(MetricsEndpoint.printable(host)) is neither the configured server nor in --probe-allow")
        }
        guard !named else { return .allowed }
        for address in addresses + [host] {
            guard let range = Self.specialRange(of: address) else { continue }
            if !allowList.coversWithin(address, range: range) {
                return .refused("target \(MetricsEndpoint.printable(host)) is \(address == host ? "" : "at \(address), ")a \(range.kind) address: allowed only when named (--probe-allow \(address))")
            }
            break  // the first special address decides, as before
        }
        return .allowed
    }

    /// A special range an address lies in, or nil.
    static func specialRange(of address: String) -> (network: [UInt8], prefix: Int, kind: String)? {
        guard let bytes = AddressBytes.parse(AddressBytes.unbracketed(address)) else { return nil }
        for range in specialRanges {
            let (network, prefix, kind) = range
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

    /// A host without the brackets of an IPv6 literal.
}

extension ProbeAllowList {
    /// Whether a pattern names `host` exactly: the same host name, or the same single address.
    func names(_ host: String) -> Bool {
        let bytes = AddressBytes.parse(host)
        return patterns.contains { pattern in
            switch pattern {
            case .host(let name): return name == host
            case .network(let network, let prefix): return bytes == network && prefix == network.count * 8
            case .domain: return false
            }
        }
    }

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
