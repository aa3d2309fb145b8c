import Foundation

/// One resource's name however a person writes its URL: what local state is keyed by (the inbox
/// cache keeps one copy per inbox resource). URLs that differ only in the case of the scheme or
/// host, a default port, a trailing slash, or a percent-escape of a character that needs none
/// (`%7E` for `~`) name one resource; `http` and `https` of one host are two, as are two ports.
/// Credentials and the fragment are not part of the name.
public enum ResourceKey {
    public static func of(_ url: URL) -> String {
        guard let origin = Origin(url), let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url.absoluteString
        }
        var path = normalisedEscapes(components.percentEncodedPath)
        while path.hasSuffix("/") { path.removeLast() }
        let query = components.percentEncodedQuery.map { "?" + normalisedEscapes($0) } ?? ""
        let defaultPort = origin.scheme == "https" ? 443 : 80
        let port = origin.port == defaultPort ? "" : ":\(origin.port)"
        return "\(origin.scheme)://\(origin.urlHost)\(port)\(path)\(query)"
    }

    /// Decodes the escapes of unreserved characters (RFC 3986 §2.3: letters, digits, `-._~`) and
    /// writes the others' hex digits in upper case (§6.2.2.1).
    static func normalisedEscapes(_ text: String) -> String {
        guard text.contains("%") else { return text }
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                let value = high << 4 | low
                if isUnreserved(value) {
                    output.append(value)
                } else {
                    output.append(UInt8(ascii: "%"))
                    output.append(upperHex(high))
                    output.append(upperHex(low))
                }
                index += 3
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func upperHex(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): true
        default: false
        }
    }
}
