import Foundation

/// A proxy as people write it (`http://user:pw@proxy.example:3128`, `socks5h://127.0.0.1:1080`,
/// or `proxy.example:3128`, which curl takes as http). The password never leaves this value but
/// in the handshake with the proxy: `display` shows the user alone.
public struct ProxyServer: Sendable, Hashable {
    public enum Scheme: String, Sendable, CaseIterable {
        /// Plain HTTP to the proxy (CONNECT for https).
        case http
        /// TLS to the proxy itself.
        case https
        /// SOCKS5, names resolved here.
        case socks5
        /// SOCKS5, names resolved by the proxy.
        case socks5h
    }

    public var scheme: Scheme
    public var host: String
    public var port: Int
    public var user: String?
    public var password: String?
    /// The certificates an https:// proxy may show (set from the settings by the decision).
    public var trust: ProxyTrust = .system

    /// `http://ann@proxy.example:3128`: what messages, `config show` and -v print.
    public var display: String {
        let bracketed = host.contains(":") ? "[\(host)]" : host
        return "\(scheme.rawValue)://" + (user.map { "\($0)@" } ?? "") + "\(bracketed):\(port)"
    }

    /// What to write instead of a proxy URL that is not one.
    public static let hint = "Write it as http://HOST:PORT, https://HOST:PORT, socks5://HOST:PORT or socks5h://HOST:PORT, with USER:PASSWORD and an @ before the host if it wants them."

    /// Reads a proxy URL; `source` names where it came from (`environment variable HTTPS_PROXY`,
    /// `flag --proxy`) in the error, a usage error (64).
    public static func parse(_ text: String, from source: String) throws -> ProxyServer {
        switch read(text) {
        case .success(let server): return server
        case .failure(let problem):
            throw ConnError.usage("the proxy '\(URLUserinfo.redacted(text.trimmingCharacters(in: .whitespaces)))' (from \(source)) \(problem.why)", hint: hint)
        }
    }

    /// Why a text is not a proxy URL.
    public struct Problem: Error, Sendable {
        public let why: String
    }

    /// A proxy URL read, or why it is not one (no source named: the caller says where it came from).
    public static func read(_ text: String) -> Result<ProxyServer, Problem> {
        let written = text.trimmingBlanks()
        func problem(_ why: String) -> Result<ProxyServer, Problem> { .failure(Problem(why: why)) }
        if written.contains(where: { $0.isWhitespace || $0.isNewline }) { return problem("contains a space") }
        let withScheme = written.contains("://") ? written : "http://" + written
        guard let components = URLComponents(string: withScheme), let schemeText = components.scheme?.lowercased() else {
            return problem("is not a URL")
        }
        guard let scheme = Scheme(rawValue: schemeText) else {
            return problem("has the scheme '\(schemeText)', which is not a proxy's (http, https, socks5, socks5h)")
        }
        guard let host = components.host, !host.isEmpty else { return problem("names no host") }
        // A bracketed host is an IPv6 address or nothing (not a name to look up: `[zz]` was, and failed as 69).
        if host.hasPrefix("["), !IPLiteral.isIPv6(String(host.dropFirst().dropLast().prefix { $0 != "%" })) {  // a zone (%eth0) aside
            return problem("has the host \(TerminalSanitizer.sanitize(host, keepNewlines: false)), which is not an IPv6 address")
        }
        if let port = components.port, !(1...65535).contains(port) { return problem("has the port \(port), outside 1-65535") }
        if hasOverlongPort(written) { return problem("has a port outside 1-65535") }
        let port = components.port ?? (scheme == .https ? 443 : 1080)  // curl's defaults for a proxy
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return .success(ProxyServer(scheme: scheme, host: bare.lowercased(), port: port,
                                    user: components.percentEncodedUser.flatMap { $0.removingPercentEncoding }.flatMap { $0.isEmpty ? nil : $0 },
                                    password: components.percentEncodedPassword.flatMap { $0.removingPercentEncoding }))
    }

    /// A port of six digits or more before the path or the end (`http://p:1000000`), which
    /// URLComponents reads as no port at all. By hand, not a regular expression: ICU's regex
    /// engine costs every command that reads a proxy setting its start-up.
    static func hasOverlongPort(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: ":") {
            var end = index + 1
            while end < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) { end += 1 }
            if end - index - 1 >= 6, end == bytes.count || bytes[end] == UInt8(ascii: "/") { return true }
        }
        return false
    }
}
