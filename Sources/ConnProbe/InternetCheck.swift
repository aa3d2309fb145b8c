import ConnCore
import Foundation

/// One plain-HTTP endpoint that answers the internet check with a known answer.
public struct InternetEndpoint: Sendable, Equatable {
    public var url: URL
    /// The status it must answer with.
    public var status: Int
    /// Text its body must contain, if any.
    public var bodyContains: String?

    /// The endpoint as a probe target.
    public var target: ProbeTarget { ProbeTarget(input: url.absoluteString, kind: .url(url)) }

    /// Parses `URL`, `URL=STATUS` or `URL=STATUS:TEXT` (as given to --internet-url); the status
    /// defaults to 204.
    public static func parse(_ text: String) throws -> InternetEndpoint {
        var urlText = text
        var status = 204
        var body: String?
        // The expectation starts at the first "=" followed by a three-digit status (a URL's own
        // query may hold "=" too).
        var searchStart = text.startIndex
        while let equals = text.range(of: "=", range: searchStart..<text.endIndex) {
            let rest = text[equals.upperBound...]
            let digits = rest.prefix(3)
            if digits.count == 3, digits.allSatisfy(\.isNumber), rest.count == 3 || rest.dropFirst(3).first == ":" {
                urlText = String(text[..<equals.lowerBound])
                status = Int(digits)!
                body = rest.count > 4 ? String(rest.dropFirst(4)) : nil
                break
            }
            searchStart = equals.upperBound
        }
        guard (100...599).contains(status) else {
            throw ConnError.usage("--internet-url '\(text)': status \(status) is not an HTTP status")
        }
        guard let url = URL(string: urlText), url.scheme == "http", url.host != nil else {
            throw ConnError.usage("--internet-url '\(URLUserinfo.redacted(text))': the internet check needs a plain http:// URL (a captive portal can only answer plain HTTP)")
        }
        // The rules of every URL conn takes: no user:password@, a port in 1-65535.
        if let problem = BackEndEndpoint.serverURLProblem(urlText) {
            throw ConnError.usage("--internet-url '\(URLUserinfo.redacted(text))' \(problem)")
        }
        return InternetEndpoint(url: url, status: status, bodyContains: body)
    }

    /// Answer-checked endpoints used when none are configured: one by name, and one IP literal
    /// of each family — a DNS failure shows as dnsBroken rather than offline, and IPv4 and IPv6
    /// are each known to work (or not) instead of guessed.
    public static let defaults: [InternetEndpoint] = ConnConfiguration.defaultInternetCheck.map { try! parse($0) }
}

/// The internet check's conclusion.
public struct InternetVerdict: Sendable, Encodable, Equatable {
    public var state: DeviceConnectivity
    public var explanation: String
    /// Whether the endpoints reached over IPv4 (IPv6) answered; nil when none was tried that way.
    public var ipv4: Bool?
    public var ipv6: Bool?

    private enum CodingKeys: String, CodingKey { case explanation, ipv4, ipv6 }

    /// Flat: `{"state":"offline","reason":"noRoute","explanation":…,"ipv4":false,"ipv6":null}`.
    public func encode(to encoder: any Encoder) throws {
        try state.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(explanation, forKey: .explanation)
        try container.encode(ipv4, forKey: .ipv4)
        try container.encode(ipv6, forKey: .ipv6)
    }
}

/// Decides what the device can reach from the answers of the check endpoints: every endpoint
/// probed at once, then judged together (NetworkManager's idea: an answer that is not the
/// expected one is a captive portal).
struct InternetCheck {
    let prober: Prober

    /// How long the other endpoints are waited for once one has answered over HTTP — as
    /// expected (the internet is there) or with another page (a portal is there). A family
    /// slower than this (an IPv6 route into a black hole) stays unknown rather than holding the
    /// verdict until the timeout. Happy Eyeballs (RFC 8305) gives the second family 250 ms.
    static let graceAfterAnswer: Duration = .milliseconds(300)

    /// Probes the endpoints as one run (see `ProbeRunner`) and judges their answers. Endpoints
    /// still out `graceAfterAnswer` after the first HTTP answer are left out: their attempts
    /// end on their own (within the timeout), unawaited.
    func run(_ endpoints: [InternetEndpoint]) async -> (InternetVerdict, [ProbeResult]) {
        let prober = prober.forNewRun()
        let (answers, continuation) = AsyncStream.makeStream(of: (Int, ProbeResult)?.self)
        for (index, endpoint) in endpoints.enumerated() {
            Task {
                let checker = prober.expecting(Prober.Expectation(statuses: [endpoint.status], bodyContains: endpoint.bodyContains))
                continuation.yield((index, await checker.probe(endpoint.target)))
            }
        }
        var collected = [ProbeResult?](repeating: nil, count: endpoints.count)
        var outstanding = endpoints.count
        var grace: Task<Void, Never>?
        for await answer in answers {
            guard let (index, result) = answer else { break }  // the grace is over
            collected[index] = result
            outstanding -= 1
            if outstanding == 0 { break }
            if result.reachable || Self.answeredOverHTTP(result), grace == nil {
                grace = Task {
                    try? await Task.sleep(for: Self.graceAfterAnswer)
                    continuation.yield(nil)
                }
            }
        }
        grace?.cancel()
        continuation.finish()
        let results = collected.compactMap { $0 }
        return (Self.refine(Self.judge(results), linksSay: InterfaceScan.offlineReason()), results)
    }

    /// The verdict with what the links say when nothing answered: no interface, carrier or
    /// address is certain from the links alone, whatever the endpoints' failures looked like (in
    /// a namespace with only loopback, the name fails to resolve and the literal has no route:
    /// that is no network at all, not "limited").
    static func refine(_ verdict: InternetVerdict, linksSay reason: OfflineReason) -> InternetVerdict {
        // Something answered (over either family): the links are up, whatever they look like.
        if verdict.ipv4 == true || verdict.ipv6 == true { return verdict }
        var verdict = verdict
        switch verdict.state {
        case .offline:
            break
        case .limited, .dnsBroken:
            guard reason != .noRoute else { return verdict }
        case .online, .portal:
            return verdict
        }
        verdict.state = .offline(reason)
        verdict.explanation = offlineExplanation(reason)
        return verdict
    }

    /// An HTTP answer that was not the expected one: a portal's page, a proxy's, a redirect.
    static func answeredOverHTTP(_ result: ProbeResult) -> Bool {
        [.httpStatus, .unexpectedBody, .portal, .redirected].contains(result.failure)
    }

    static func offlineExplanation(_ reason: OfflineReason) -> String {
        switch reason {
        case .noInterface: "no network interface is up: no network connection"
        case .noCarrier: "network interfaces are up but none has a link (cable out, Wi-Fi not connected)"
        case .noAddress: "a link is up but has no address (DHCP did not answer?)"
        case .noRoute: "there is no route to the internet: no network connection"
        }
    }

    /// The address family a result was tried over: that of its address, else that of its host
    /// when the host is an IP literal (one that found no route was still tried, and failed);
    /// nil for a name that never resolved.
    static func family(of result: ProbeResult) -> Int? {
        if let address = result.address { return address.contains(":") ? 6 : 4 }
        let host = result.host.hasPrefix("[") ? String(result.host.dropFirst().dropLast()) : result.host
        if IPLiteral.isIPv6(host) { return 6 }
        if IPLiteral.isIPv4(host) { return 4 }
        return nil
    }

    static func judge(_ results: [ProbeResult]) -> InternetVerdict {
        let families = Dictionary(grouping: results.filter { family(of: $0) != nil }) { family(of: $0)! }
        let ipv4 = families[4].map { $0.contains(where: \.reachable) }
        let ipv6 = families[6].map { $0.contains(where: \.reachable) }
        func verdict(_ state: DeviceConnectivity, _ explanation: String) -> InternetVerdict {
            InternetVerdict(state: state, explanation: explanation, ipv4: ipv4, ipv6: ipv6)
        }
        let dnsFailed: (ProbeResult) -> Bool = { $0.rungs.first { $0.name == "dns" }?.ok == false }
        if results.contains(where: \.reachable) {
            if results.contains(where: dnsFailed) {
                return verdict(.dnsBroken, "addresses answer, but names do not resolve: DNS is broken")
            }
            return verdict(.online, "the check endpoints answer as expected")
        }
        if let portal = results.first(where: answeredOverHTTP) {
            return verdict(.portal(url: portal.url), "an unexpected page answered in place of \(portal.url ?? portal.target): a captive portal (sign in) or a proxy")
        }
        if !results.isEmpty, results.allSatisfy({ $0.failure == .noCarrier }) {
            return verdict(.offline(.noCarrier), offlineExplanation(.noCarrier))
        }
        if !results.isEmpty, results.allSatisfy({ $0.failure == .noRoute }) {
            return verdict(.offline(.noRoute), "there is no route to the internet: no network connection")
        }
        if !results.isEmpty, results.allSatisfy(dnsFailed) {
            return verdict(.dnsBroken, "names do not resolve and nothing answers")
        }
        return verdict(.limited, "a route exists, but the internet does not answer")
    }
}
