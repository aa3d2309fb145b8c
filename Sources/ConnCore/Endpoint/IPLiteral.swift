#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Whether a host, as written in a URL or on the command line, is an IP address rather than a
/// name. TLS must not name an IP address in SNI (RFC 6066 §3), and probe skips DNS for one.
public enum IPLiteral {
    /// Dotted IPv4 (`127.0.0.1`), as `inet_pton` reads it.
    public static func isIPv4(_ host: String) -> Bool {
        var address = in_addr()
        return host.withCString { inet_pton(AF_INET, $0, &address) } == 1
    }

    /// IPv6 without brackets (`::1`).
    public static func isIPv6(_ host: String) -> Bool {
        var address = in6_addr()
        return host.withCString { inet_pton(AF_INET6, $0, &address) } == 1
    }

    /// Either family; brackets around an IPv6 literal are allowed.
    public static func isLiteral(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return isIPv4(bare) || isIPv6(bare)
    }

    /// What is wrong with the brackets in a URL's host, if anything: `http://[zz]:80/` and
    /// `http://[:::1]/` are malformed IPv6 literals (a usage error), not names to look up.
    public static func bracketProblem(inURL text: String) -> String? {
        guard let schemeEnd = text.range(of: "://") else { return nil }
        let rest = text[schemeEnd.upperBound...]
        var authority = rest[..<(rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex)]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        guard authority.contains("[") || authority.contains("]") else { return nil }
        guard authority.hasPrefix("["), let close = authority.firstIndex(of: "]"),
            isIPv6(String(authority[authority.index(after: authority.startIndex)..<close]))
        else {
            return "has a malformed IPv6 address in brackets ('\(authority.prefix(80))'): one is written [2001:db8::1]"
        }
        return nil
    }
}
