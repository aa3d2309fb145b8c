import Foundation

/// IP addresses as bytes (4 or 16), for matching against addresses and CIDR ranges: NO_PROXY,
/// `/probe`'s allow list and its special ranges.
public enum AddressBytes {
    /// A host as a URL writes it, without the brackets of an IPv6 literal (`[::1]` → `::1`).
    public static func unbracketed(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }

    /// The bytes of an IPv4 or IPv6 address written as text; nil for anything else.
    public static func parse(_ text: String) -> [UInt8]? {
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    /// Whether two addresses of one family share their first `bits` bits.
    public static func samePrefix(_ a: [UInt8], _ b: [UInt8], bits: Int) -> Bool {
        for index in 0..<a.count {
            let remaining = bits - index * 8
            if remaining <= 0 { return true }
            let mask: UInt8 = remaining >= 8 ? 0xff : UInt8(0xff << (8 - remaining))
            if a[index] & mask != b[index] & mask { return false }
        }
        return true
    }
}
