import Foundation

/// `NO_PROXY` as curl reads it: a comma-separated list of `*` (no proxy at all), host names
/// that match themselves and their subdomains (`example.com`, `.example.com`), IP addresses,
/// CIDR ranges (`10.0.0.0/8`, `fd00::/8`), each optionally with `:PORT` (`[::1]:8080` for IPv6).
/// It matches the host as the URL writes it, before any DNS look-up. As in curl, `*` turns the
/// proxy off only as the whole value: a stray `*` in a long list is ignored, never a bypass of
/// the proxy for every host. Unlike curl, `*.example.com` means `.example.com` (curl matches it
/// to nothing; lists written for other tools use it).
public struct NoProxyList: Sendable, Equatable {
    enum Entry: Sendable, Equatable {
        case everything
        case domain(String, port: Int?)
        case address([UInt8], prefix: Int, port: Int?)
    }

    let entries: [Entry]

    public init(_ text: String) {
        let whole = text.trimmingBlanks()
        entries = whole == "*" ? [.everything]
            : whole.split(separator: ",").compactMap { item in
                let written = item.trimmingBlanks().lowercased()
                return written == "*" ? nil : Self.entry(written)
            }
    }

    public var isEmpty: Bool { entries.isEmpty }

    /// Whether a request to `host` (as written in its URL) on `port` goes without the proxy.
    public func matches(host: String, port: Int) -> Bool {
        let host = AddressBytes.unbracketed(host.lowercased())
        let bytes = AddressBytes.parse(host)
        return entries.contains { entry in
            switch entry {
            case .everything:
                return true
            case .domain(let domain, let wanted):
                guard wanted == nil || wanted == port else { return false }
                return host == domain || host.hasSuffix("." + domain)
            case .address(let network, let prefix, let wanted):
                guard wanted == nil || wanted == port, let bytes, bytes.count == network.count else { return false }
                return AddressBytes.samePrefix(bytes, network, bits: prefix)
            }
        }
    }

    static func entry(_ text: String) -> Entry? {
        guard !text.isEmpty else { return nil }
        if text == "*" { return .everything }
        var body = text
        var port: Int?
        // [v6]:port, [v6], host:port, v4:port (a bare v6 has more than one colon: no port).
        if body.hasPrefix("[") {
            guard let close = body.firstIndex(of: "]") else { return nil }
            let rest = body[body.index(after: close)...]
            if rest.hasPrefix(":") { port = Int(rest.dropFirst()) }
            body = String(body[body.index(after: body.startIndex)..<close])
        } else if body.filter({ $0 == ":" }).count == 1, let colon = body.lastIndex(of: ":") {
            port = Int(body[body.index(after: colon)...])
            body = String(body[..<colon])
        }
        let parts = body.split(separator: "/", omittingEmptySubsequences: false)
        if let bytes = AddressBytes.parse(String(parts[0])) {
            let prefix = parts.count == 2 ? Int(parts[1]) : bytes.count * 8
            guard parts.count <= 2, let prefix, (0...(bytes.count * 8)).contains(prefix) else { return nil }
            return .address(bytes, prefix: prefix, port: port)
        }
        let domain = body.hasPrefix("*.") ? String(body.dropFirst(2)) : body.hasPrefix(".") ? String(body.dropFirst()) : body
        return domain.isEmpty ? nil : .domain(domain, port: port)
    }

}
