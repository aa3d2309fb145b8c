import ConnCore
import Foundation

/// What `conn probe` was asked to reach, parsed from one command-line word (or file line).
public struct ProbeTarget: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// An http(s) URL: the whole ladder up to an HTTP answer.
        case url(URL)
        /// `host:port` or `[v6]:port`: name resolution and a TCP connection.
        case hostPort(host: String, port: Int)
    }

    /// The text the user gave, for output in their own words.
    public let input: String
    public let kind: Kind
    /// True for the configured server's health resource.
    public let isServer: Bool
    /// The host (an IPv6 address without brackets), the port, and whether TLS is spoken, read
    /// once here: every rung of the ladder asks for them.
    public let host: String
    public let port: Int
    public let usesTLS: Bool

    public init(input: String, kind: Kind, isServer: Bool = false) {
        self.input = input
        self.kind = kind
        self.isServer = isServer
        switch kind {
        case .url(let url):
            let tls = url.scheme?.lowercased() == "https"
            host = url.host ?? ""
            port = url.port ?? (tls ? 443 : 80)
            usesTLS = tls
        case .hostPort(let host, let port):
            self.host = host
            self.port = port
            usesTLS = false
        }
    }

    /// Parses `host`, `host:port`, `[v6]:port`, a bare IPv6 address, or an http(s) URL.
    /// A bare host means port 443: "can I open a connection to it" is what a person asks.
    /// The configured server, probed at its health resource.
    public static func server(_ backEnd: BackEndEndpoint) -> ProbeTarget {
        let url = backEnd.url(for: .health)
        return ProbeTarget(input: url.absoluteString, kind: .url(url), isServer: true)
    }

    public static func parse(_ text: String) throws -> ProbeTarget {
        let input = String(text.trimmingWhitespace())
        func bad(_ why: String) -> ConnError {
            ConnError.usage("target '\(URLUserinfo.redacted(input))': \(why)", hint: "Targets look like example.com, example.com:8080, [::1]:8080 or https://example.com/health.")
        }
        guard !input.isEmpty else { throw bad("empty") }
        if containsSchemeSeparator(input) {
            if let problem = IPLiteral.bracketProblem(inURL: input) { throw bad(String(problem.dropFirst("has ".count))) }
            guard let url = URL(string: input), let scheme = url.scheme?.lowercased() else { throw bad("not a valid URL") }
            guard scheme == "http" || scheme == "https" else { throw bad("only http and https URLs can be probed") }
            guard let host = url.host, !host.isEmpty else { throw bad("the URL has no host") }
            if url.user != nil || url.password != nil { throw bad(URLUserinfo.problem) }
            if let port = url.port, !(1...65535).contains(port) { throw bad("port \(port) is out of range (1-65535)") }
            return ProbeTarget(input: input, kind: .url(url))
        }
        // `user:password@host:port` without a scheme: refused as in a URL, never echoed.
        if input.contains("@") { throw bad(URLUserinfo.problem) }
        if input.hasPrefix("[") {  // [v6]:port or [v6]
            guard let close = input.firstIndex(of: "]") else { throw bad("missing ']' after the IPv6 address") }
            let address = String(input[input.index(after: input.startIndex)..<close])
            guard IPLiteral.isIPv6(address) else { throw bad("'\(address)' is not an IPv6 address") }
            let rest = input[input.index(after: close)...]
            if rest.isEmpty { return ProbeTarget(input: input, kind: .hostPort(host: address, port: 443)) }
            guard rest.hasPrefix(":") else { throw bad("expected ':PORT' after ']'") }
            return ProbeTarget(input: input, kind: .hostPort(host: address, port: try port(String(rest.dropFirst()), bad)))
        }
        if IPLiteral.isIPv6(input) { return ProbeTarget(input: input, kind: .hostPort(host: input, port: 443)) }
        let parts = input.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { throw bad("an IPv6 address with a port must be written [address]:port") }
        let host = String(parts[0])
        guard isValidHostName(host) else { throw bad("'\(host)' is not a valid host name") }
        let portNumber = parts.count == 2 ? try port(String(parts[1]), bad) : 443
        return ProbeTarget(input: input, kind: .hostPort(host: host, port: portNumber))
    }

    /// Whether the text holds "://" (read as bytes: Foundation's and the generic substring
    /// searches cost more than the URL parse that follows, per line of a large --file).
    static func containsSchemeSeparator(_ text: String) -> Bool {
        var last: UInt8 = 0, beforeLast: UInt8 = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "/"), last == UInt8(ascii: "/"), beforeLast == UInt8(ascii: ":") { return true }
            (beforeLast, last) = (last, byte)
        }
        return false
    }

    private static func port(_ text: String, _ bad: (String) -> ConnError) throws -> Int {
        guard let value = Int(text) else { throw bad("port '\(text)' is not a number") }
        guard (1...65535).contains(value) else { throw bad("port \(value) is out of range (1-65535)") }
        return value
    }

    static func isValidHostName(_ host: String) -> Bool {
        guard !host.isEmpty, host.count <= 253 else { return false }
        return host.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
        }
    }
}
