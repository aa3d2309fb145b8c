/// What a proxy's own answer says about the target behind it, read the way each proxy says it:
/// a proxy that could not reach the target answers for it (squid 503 with `X-Squid-Error:
/// ERR_CONNECT_FAIL 111`, tinyproxy 500 "Unable to connect", a SOCKS5 reply 5), and that is the
/// target's failure — refused, timeout, nxdomain, noRoute — not the proxy's. The proxy's own
/// verdicts stay for what is its own: it cannot be reached, it wants credentials (407), its
/// rules refuse the request (squid's 403 `ERR_ACCESS_DENIED`, SOCKS5 reply 2).
public struct ProxyAnswer: Sendable, Equatable {
    /// How the target failed, as far as the proxy said: `refused`, `timeout`, `nxdomain`,
    /// `noRoute`, or `unreachable` when it did not say why.
    public var failure: ReachabilityFailure
    /// What the proxy said, sanitised and short: `503 (ERR_CONNECT_FAIL 111)`, `SOCKS5 reply 5,
    /// connection refused`.
    public var said: String

    public init(failure: ReachabilityFailure, said: String) {
        self.failure = failure
        self.said = said
    }

    /// The target's failure in a proxy's HTTP answer (to CONNECT, or to a request in absolute
    /// form); nil when the answer is not one of a proxy's "could not reach it" pages.
    ///
    /// - squid: `X-Squid-Error` names the error and, for a failed connect, the errno.
    /// - tinyproxy: its own 500 page (`Server: tinyproxy/…`), "Unable to connect", which says
    ///   nothing of why (refused and an unknown name alike): `unreachable`.
    /// - any proxy's answer to CONNECT (`toConnect`): 504 is the target's timeout, 502 and 503
    ///   its failure of unknown kind; to a request in absolute form these may be the target's
    ///   own answer, so only a proxy's signature counts there.
    public static func read(status: Int, reason: String?, headers: [(String, String)], toConnect: Bool) -> ProxyAnswer? {
        func header(_ name: String) -> String? {
            headers.first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
        }
        let shownReason = reason.map { TerminalSanitizer.sanitize(String($0.prefix(80)), keepNewlines: false) }.flatMap { $0.isEmpty ? nil : $0 }
        let statusText = "\(status)" + (shownReason.map { " \($0)" } ?? "")
        if let squid = header("X-Squid-Error"), (400...599).contains(status) {
            let named = TerminalSanitizer.sanitize(String(squid.prefix(80)), keepNewlines: false).trimmingBlanks()
            let said = "\(statusText) (\(named))"
            let words = named.split(separator: " ")
            let error = words.first.map(String.init) ?? ""
            let errno = words.count > 1 ? Int(words[1]) : nil
            switch error {
            case "ERR_CONNECT_FAIL":
                return ProxyAnswer(failure: connectFailure(errno: errno), said: said)
            case "ERR_DNS_FAIL":
                return ProxyAnswer(failure: .nxdomain, said: said)
            case "ERR_READ_TIMEOUT", "ERR_LIFETIME_EXP":
                return ProxyAnswer(failure: .timeout, said: said)
            case "ERR_READ_ERROR", "ERR_WRITE_ERROR", "ERR_ZERO_SIZE_OBJECT":
                return ProxyAnswer(failure: .unreachable, said: said)
            default:
                return nil  // ERR_ACCESS_DENIED and the rest: the proxy's own rules
            }
        }
        let server = header("Server")?.lowercased() ?? ""
        if status == 500, server.hasPrefix("tinyproxy"), reason?.lowercased().contains("unable to connect") != false {
            return ProxyAnswer(failure: .unreachable, said: statusText + " (tinyproxy)")
        }
        guard toConnect else { return nil }
        switch status {
        case 504: return ProxyAnswer(failure: .timeout, said: statusText)
        case 502, 503: return ProxyAnswer(failure: .unreachable, said: statusText)
        default: return nil
        }
    }

    /// The target's failure in a SOCKS5 reply (RFC 1928 §6): 3 network unreachable and 4 host
    /// unreachable are `noRoute`, 5 `refused`, 6 TTL expired `timeout`; 1 (general failure), 2 (the
    /// proxy's rules) and the rest are the proxy's own.
    public static func socks(reply: UInt8) -> ProxyAnswer? {
        let failure: ReachabilityFailure
        switch reply {
        case 3, 4: failure = .noRoute
        case 5: failure = .refused
        case 6: failure = .timeout
        default: return nil
        }
        return ProxyAnswer(failure: failure, said: "SOCKS5 reply \(reply), \(SOCKSTunnel.replyText(reply))")
    }

    /// A failed connect's errno as squid names it (Linux's numbers: 111 ECONNREFUSED, 110
    /// ETIMEDOUT, 101 ENETUNREACH, 113 EHOSTUNREACH).
    static func connectFailure(errno: Int?) -> ReachabilityFailure {
        switch errno {
        case 111: .refused
        case 110: .timeout
        case 101, 113: .noRoute
        default: .unreachable
        }
    }

    /// The sentence for a person: `127.0.0.1:8080 refused the connection (said the proxy …: 503 (ERR_CONNECT_FAIL 111))`.
    public func sentence(target: String, proxy named: String) -> String {
        let what: String = switch failure {
        case .refused: "\(target) refused the connection: the host is up, but nothing listens on that port"
        case .timeout: "\(target) did not answer in time"
        case .nxdomain: "the name of \(target) does not resolve"
        case .noRoute: "there is no route to \(target)"
        default: "\(target) could not be reached"
        }
        return "\(what) (said \(named): \(said))"
    }

    /// The error for a request that failed so: the target's code, its usual exit status.
    public func error(target: String, proxy named: String) -> ConnError {
        let message = sentence(target: target, proxy: named)
        switch failure {
        case .timeout: return .temporary(.timeout, message, hint: HTTPTransport.timeoutHint)
        case .refused: return .unavailable(.refused, message)
        case .nxdomain: return .unavailable(.nxdomain, message, hint: "Check the spelling; the proxy resolves the name, with its own DNS.")
        case .noRoute: return .unavailable(.noRoute, message)
        default: return .unavailable(.unreachable, message, hint: "The proxy's own log says why.")
        }
    }
}
