import ConnCore
import Foundation
import Logging
import NIOCore
import NIOHTTP1

/// Walks the ladder for one target — DNS, route and interface, TCP, TLS, HTTP — and stops at
/// the first rung that fails: that rung is the verdict.
public struct Prober: Sendable {
    public struct Expectation: Sendable, Equatable {
        /// Acceptable HTTP statuses; nil means any 2xx, or 304 (a redirect is followed within its
        /// origin and the last answer judged). A redirect status named here is taken as it is.
        public var statuses: Set<Int>?
        /// Text the body must contain.
        public var bodyContains: String?

        public init(statuses: Set<Int>? = nil, bodyContains: String? = nil) {
            self.statuses = statuses
            self.bodyContains = bodyContains
        }
    }

    public let timeout: Duration
    /// How the targets' certificates are checked (`--insecure`, `--cacert`).
    public let trust: ServerTrust
    public var insecure: Bool { trust.insecure }
    public let expectation: Expectation
    /// The bearer token goes to the configured server's origin only, never to other targets.
    public let credentials: Credentials?
    public let classifier: InterfaceClassifier
    /// Routes and interfaces, shared by every probe of a run (many targets, few routes).
    let routes: RouteCache
    /// The run's kept-alive plain-http connections (nil: each target connects and closes).
    let connections: ConnectionPool?
    /// Which proxy a URL target is reached through (HTTP CONNECT; `ProbeCommand` refuses the
    /// kinds the ladder cannot use before probing).
    public let proxies: ProxySettings
    /// The way out (`--interface`, `-4`, `-6`): every connection of the ladder is bound to it.
    public let egress: Egress
    /// Names already looked up (`/probe`'s check): their answers stand, no second lookup.
    let settledNames: SettledNames?

    public init(timeout: Duration, trust: ServerTrust, expectation: Expectation, credentials: Credentials? = nil,
                classifier: InterfaceClassifier = InterfaceClassifier(), proxies: ProxySettings = .none, egress: Egress = .any,
                settledNames: SettledNames? = nil) {
        self.init(timeout: timeout, trust: trust, expectation: expectation, credentials: credentials,
                  classifier: classifier, routes: RouteCache(classifier: classifier, egress: egress), connections: nil, proxies: proxies,
                  egress: egress, settledNames: settledNames)
    }

    init(timeout: Duration, trust: ServerTrust, expectation: Expectation, credentials: Credentials?, classifier: InterfaceClassifier,
         routes: RouteCache, connections: ConnectionPool?, proxies: ProxySettings = .none, egress: Egress = .any,
         settledNames: SettledNames? = nil) {
        self.timeout = timeout
        self.trust = trust
        self.expectation = expectation
        self.credentials = credentials
        self.classifier = classifier
        self.routes = routes
        self.connections = connections
        self.proxies = proxies
        self.egress = egress
        self.settledNames = settledNames
    }

    /// The same prober with an empty route cache: each run (a monitor's look, a try of
    /// `probe --wait`) starts from the routes and interfaces the machine has now. With a pool,
    /// the run's plain-http targets share kept-alive connections per origin; the run closes it.
    /// `routes`: a cache to go on with instead (`probe --count`, while nothing changed).
    func forNewRun(connections: ConnectionPool? = nil, routes: RouteCache? = nil) -> Prober {
        Prober(timeout: timeout, trust: trust, expectation: expectation, credentials: credentials, classifier: classifier,
               routes: routes ?? newRouteCache(), connections: connections, proxies: proxies, egress: egress, settledNames: settledNames)
    }

    /// An empty cache of routes and interfaces for this prober's way out.
    func newRouteCache() -> RouteCache {
        RouteCache(classifier: classifier, egress: egress)
    }

    /// The same prober with another expectation (the internet check's endpoints each have theirs).
    func expecting(_ expectation: Expectation) -> Prober {
        Prober(timeout: timeout, trust: trust, expectation: expectation, credentials: nil, classifier: classifier, routes: routes,
               connections: connections, proxies: proxies, egress: egress, settledNames: settledNames)
    }

    /// The ladder for `target`; an answer that redirects within the target's origin is followed
    /// (at most `SameOriginRedirects.maximum` times, each hop its own ladder) and the last answer
    /// judged. A redirect to another origin is no answer from the target: `redirected`, or for
    /// the configured server `portal` (a captive portal answers a health check exactly so).
    public func probe(_ target: ProbeTarget) async -> ProbeResult {
        var result = await walk(target)
        guard case .url(let asked) = target.kind else { return result }
        var current = asked
        var hops = 0
        while result.failure == .redirected, let location = result.location, let next = URL(string: location) {
            let shown = location.prefix(300)
            guard Origin(next) == Origin(current) else {
                if target.isServer {
                    result.verdict = ReachabilityFailure.portal.rawValue
                    result.explanation = "\(current.absoluteString) redirected to \(shown), another site: a captive portal or a proxy is in the way"
                } else {
                    result.explanation = "\(current.absoluteString) redirected to \(shown), another site; conn follows redirects only within one origin"
                }
                return result
            }
            hops += 1
            guard hops <= SameOriginRedirects.maximum else {
                result.explanation = "\(asked.absoluteString) redirected more than \(SameOriginRedirects.maximum) times"
                return result
            }
            let followed = await walk(ProbeTarget(input: target.input, kind: .url(next), isServer: target.isServer))
            result.rungs += followed.rungs
            result.reachable = followed.reachable
            result.verdict = followed.verdict
            result.explanation = followed.explanation
            result.httpStatus = followed.httpStatus
            result.location = followed.location ?? result.location
            result.address = followed.address ?? result.address
            result.interface = followed.interface ?? result.interface
            result.certificate = followed.certificate ?? result.certificate
            result.response = followed.response.map { var response = $0; response.redirects = hops; return response }
            result.totalMs += followed.totalMs
            current = next
        }
        return result
    }

    /// One ladder: one connection, one answer, no redirect followed.
    private func walk(_ target: ProbeTarget) async -> ProbeResult {
        let clock = ContinuousClock()
        let start = clock.now
        var result = ProbeResult(
            target: target.input, kind: target.isServer ? "server" : (isURL(target) ? "url" : "hostPort"),
            url: urlString(target), host: target.host, port: target.port, reachable: false, verdict: "",
            explanation: "", rungs: [], totalMs: 0)
        // Through a proxy, the ladder's DNS, route and TCP rungs are the proxy's; TLS to an
        // https:// proxy and a CONNECT rung open the tunnel; TLS and HTTP are the target's, inside it.
        let proxy: (server: ProxyServer, source: String)? = {
            guard case .url(let url) = target.kind, let decision = try? proxies.decision(for: url), let server = decision.server
            else { return nil }
            return (server, decision.source ?? "the proxy settings")
        }()
        let through = proxy.map { "the proxy \($0.server.display) (from \($0.source))" }
        let dialled = proxy.map { ProbeTarget(input: $0.server.display, kind: .hostPort(host: $0.server.host, port: $0.server.port)) } ?? target
        func finish(_ failure: ReachabilityFailure?, _ explanation: String) -> ProbeResult {
            result.reachable = failure == nil
            result.verdict = failure?.rawValue ?? "reachable"
            result.explanation = explanation
            result.totalMs = start.duration(to: clock.now).milliseconds
            return result
        }

        // DNS (of the proxy, through one: names behind it are the proxy's to resolve)
        let resolved: [ResolvedAddress]
        let whose = proxy == nil ? "" : "the proxy's name "
        if let literal = literalAddress(dialled) {
            resolved = [literal]
            result.rungs.append(ProbeRung(name: "dns", ok: true, ms: 0, detail: "\(dialled.host) is an IP address"))
        } else {
            let dnsStart = clock.now
            // A settled name (the target's, not a proxy's) keeps the answer it was checked by.
            let settled = proxy == nil ? settledNames?.answer(for: dialled.host, port: dialled.port) : nil
            let answer = if let settled { settled.result } else { await NameResolver.resolve(host: dialled.host, port: dialled.port, timeout: timeout) }
            switch answer {
            case .success(let found):
                resolved = found
                result.rungs.append(ProbeRung(name: "dns", ok: true, ms: (settled?.elapsed ?? dnsStart.duration(to: clock.now)).milliseconds,
                                              detail: whose + found.map(\.ip).joined(separator: ", ")))
            case .failure(.notFound):
                result.rungs.append(ProbeRung(name: "dns", ok: false, ms: dnsStart.duration(to: clock.now).milliseconds, detail: whose + "no such name"))
                if let through { return finish(.proxyUnreachable, "\(through): the name \(dialled.host) does not resolve") }
                return finish(.nxdomain, "the name \(target.host) does not resolve")
            case .failure(.timeout):
                // Before the deadline, the resolver gave up by itself (EAI_AGAIN): its name
                // servers could not be reached, at once when there is no route to any of them.
                let elapsed = settled?.elapsed ?? dnsStart.duration(to: clock.now)
                if elapsed < timeout / 2 {
                    let servers = NameServers.configured()
                    let gaveUp = "the resolver gave up after \(TimeFormatting.duration(elapsed))"
                    if !servers.isEmpty, servers.allSatisfy({ if case .failure(.noRoute) = routes.route(to: $0) { true } else { false } }) {
                        let named = servers.map(\.ip).joined(separator: ", ")
                        result.rungs.append(ProbeRung(name: "dns", ok: false, ms: elapsed.milliseconds, detail: whose + "\(gaveUp): no route to the name server \(named)"))
                        if let through { return finish(.proxyUnreachable, "\(through): its name cannot be resolved: there is no route to the name server \(named)") }
                        return finish(.noRoute, "the name \(dialled.host) cannot be resolved: there is no route to the name server \(named) (/etc/resolv.conf)")
                    }
                    result.rungs.append(ProbeRung(name: "dns", ok: false, ms: elapsed.milliseconds, detail: whose + "\(gaveUp) without an answer"))
                    return finish(.timeout, "the name \(dialled.host) could not be resolved: \(gaveUp) without an answer from its name servers")
                }
                result.rungs.append(ProbeRung(name: "dns", ok: false, ms: nil, detail: whose + "the resolver did not answer in time"))
                return finish(.timeout, "the name \(dialled.host) could not be resolved in time: DNS may be down")
            case .failure(.other(let why)):
                result.rungs.append(ProbeRung(name: "dns", ok: false, ms: nil, detail: whose + why))
                if let through { return finish(.proxyUnreachable, "\(through): the name \(dialled.host) could not be resolved: \(why)") }
                return finish(.nxdomain, "the name \(target.host) could not be resolved: \(why)")
            }
        }

        // -4 / -6: the addresses of that family only. Then, as curl picks them, the ones the
        // way out has a route to: a name with both families, asked over an IPv4-only interface
        // (--interface), goes by IPv4 rather than failing on its IPv6 address.
        let allowed = resolved.filter { egress.allows(family: $0.family) }
        let routable = allowed.filter { if case .success = routes.route(to: $0) { true } else { false } }
        let addresses = routable.isEmpty ? allowed : routable
        result.resolvedAddress = addresses.first?.ip
        if addresses.isEmpty, let family = egress.family {
            let others = resolved.map(\.ip).joined(separator: ", ")
            let literal = literalAddress(dialled) != nil
            let why = literal ? "\(dialled.host) is an IPv\(family == .ipv4 ? 6 : 4) address, and -\(family.rawValue) allows IPv\(family.rawValue) only"
                : "\(dialled.host) has no IPv\(family.rawValue) address, and -\(family.rawValue) allows no other (it has \(others))"
            result.rungs.append(ProbeRung(name: "dns", ok: false, ms: 0, detail: why))
            if let through { return finish(.proxyUnreachable, "\(through): \(why)") }
            return finish(.nxdomain, why)
        }

        // Route and interface, for the address we will try first.
        let first = addresses[0]
        switch routes.route(to: first) {
        case .success(let route):
            let found = routes.interface(sourceIP: route.sourceIP)
            if let found {
                result.interface = found.probeInterface(sourceAddress: route.sourceIP)
            }
            let via = "via \(result.interface?.name ?? "?") (\(result.interface?.kind.rawValue ?? "unknown")) from \(route.sourceIP)"
                + (egress.isAny ? "" : " (\(egress.description))")
            // A route over a link with no carrier is still in the table (the kernel marks it
            // linkdown), but nothing passes: say so now instead of after the TCP deadline.
            if let found, !found.running {
                result.rungs.append(ProbeRung(name: "route", ok: false, ms: 0, detail: via + ", which has no carrier"))
                return finish(.noCarrier, "the way to \(first.ip) leaves by \(found.name), which has no carrier (cable out, link down)")
            }
            result.rungs.append(ProbeRung(name: "route", ok: true, ms: 0, detail: via))
        case .failure(.noRoute):
            // Bound to an interface that is down or has no carrier: that is why, said so.
            if let name = egress.interface, let bound = LocalInterface.current().first(where: { $0.name == name }), !bound.up || !bound.running {
                let why = bound.up ? "\(name) (--interface) has no carrier" : "\(name) (--interface) is down"
                result.rungs.append(ProbeRung(name: "route", ok: false, ms: 0, detail: "no route to \(first.ip): \(why)"))
                if let through { return finish(.proxyUnreachable, "there is no route to \(through) at \(first.ip): \(why)") }
                return finish(bound.up ? .noCarrier : .noRoute, "there is no route to \(first.ip): the interface \(why)")
            }
            result.rungs.append(ProbeRung(name: "route", ok: false, ms: 0, detail: "no route to \(first.ip)" + (egress.interface.map { " by \($0) (--interface)" } ?? "")))
            if let through { return finish(.proxyUnreachable, "there is no route to \(through) at \(first.ip)") }
            if let name = egress.interface { return finish(.noRoute, "there is no route to \(first.ip) by \(name) (--interface)") }
            return finish(.noRoute, "there is no route to \(first.ip): this host has no network path to it")
        case .failure(.other(let why)):
            result.rungs.append(ProbeRung(name: "route", ok: false, ms: 0, detail: why))
        }

        // TCP: each address in turn until one connects. A plain-http target's HTTP rung runs on
        // the same pass, on the channel's event loop.
        var tcpFailure: (ReachabilityFailure, String)?
        func recordNotConnected(_ tcp: ConnectionProber.TCPResult, _ address: ResolvedAddress) {
            switch tcp {
            case .connected: break
            case .refused(let elapsed):
                result.rungs.append(ProbeRung(name: "tcp", ok: false, ms: elapsed.milliseconds, detail: "\(bracketed(address)):\(address.port) refused"))
                if tcpFailure?.0 != .refused {
                    tcpFailure = (.refused, "\(dialled.host) is up (it answered), but nothing listens on port \(dialled.port)")
                }
            case .noRoute(let elapsed):
                result.rungs.append(ProbeRung(name: "tcp", ok: false, ms: elapsed.milliseconds, detail: "no route to \(address.ip)"))
                tcpFailure = tcpFailure ?? (.noRoute, "there is no route to \(address.ip)")
            case .timeout:
                result.rungs.append(ProbeRung(name: "tcp", ok: false, ms: nil, detail: "\(bracketed(address)):\(address.port) did not answer within \(TimeFormatting.duration(timeout))"))
                tcpFailure = tcpFailure ?? (.timeout, "\(dialled.host):\(dialled.port) did not answer within \(TimeFormatting.duration(timeout)): packets are dropped or the host is down")
            case .failed(let why):
                result.rungs.append(ProbeRung(name: "tcp", ok: false, ms: nil, detail: why))
                tcpFailure = tcpFailure ?? (.timeout, "cannot connect to \(dialled.host):\(dialled.port): \(why)")
            }
        }
        func recordConnected(_ address: ResolvedAddress, after elapsed: Duration, reused: Bool = false) {
            result.address = address.ip
            let detail = reused ? "reused this run's connection to \(bracketed(address)):\(address.port)" : "connected to \(bracketed(address)):\(address.port)"
            result.rungs.append(ProbeRung(name: "tcp", ok: true, ms: elapsed.milliseconds, detail: detail))
        }
        func finishHTTP(_ answer: Result<ChannelHTTPExchange.Response, any Error>, _ url: URL) -> ProbeResult {
            let http = judge(answer, url: url, target: target)
            result.httpStatus = http.status
            if case .success(let response) = answer {
                result.response = ProbeResponse(
                    httpVersion: "\(response.version.major).\(response.version.minor)",
                    contentLength: response.headers.first(name: "Content-Length").flatMap { Int($0.trimmingBlanks()) }.flatMap { $0 >= 0 ? $0 : nil },
                    bodyBytes: response.body.readableBytes, firstByteMs: response.untilHead.milliseconds, tls: target.usesTLS, redirects: 0)
            }
            result.location = http.location
            result.rungs.append(http.rung)
            return finish(http.failure, http.explanation)
        }
        func notReached() -> ProbeResult {
            let (failure, explanation) = tcpFailure ?? (.timeout, "no address of \(dialled.host) could be reached")
            if let through { return finish(.proxyUnreachable, "\(through) cannot be reached: \(explanation)") }
            return finish(failure, explanation)
        }

        // Addresses of both families, or several of one: raced (RFC 8305).
        let raced = HappyEyeballs.interleaved(addresses)
        if case .url(let url) = target.kind, !target.usesTLS, proxy == nil {
            let answered: (address: ResolvedAddress, outcome: ChannelHTTPExchange.PlainOutcome)
            if raced.count == 1 {
                // One address (most targets): connected and asked in one hand-off to the event loop.
                answered = (raced[0], await ChannelHTTPExchange.connectAndGet(url, address: raced[0], headers: authorization(for: url),
                                                                              maxBytes: Self.maxBodyBytes, timeout: timeout, pool: connections, egress: egress))
            } else {
                let race = await ChannelHTTPExchange.get(url, addresses: raced, headers: authorization(for: url), maxBytes: Self.maxBodyBytes,
                                                         timeout: timeout, pool: connections, egress: egress)
                for failure in race.failures { recordNotConnected(failure.result, failure.address) }
                guard let winner = race.answered else { return notReached() }
                answered = winner
            }
            switch answered.outcome {
            case .notConnected(let tcp):
                recordNotConnected(tcp, answered.address)
                return notReached()
            case .connected(let elapsed, let reused, let answer):
                recordConnected(answered.address, after: elapsed, reused: reused)
                return finishHTTP(answer, url)
            }
        }

        var channel: (any Channel)?
        let race = await HappyEyeballs.race(raced) { [egress] address in await ConnectionProber.connect(to: address, timeout: timeout, egress: egress) }
        for failure in race.failures { recordNotConnected(failure.result, failure.address) }
        if let winner = race.winner {
            channel = winner.channel
            recordConnected(winner.address, after: winner.elapsed)
        }
        guard let channel else { return notReached() }

        // TLS to an https:// proxy, its own rung: a certificate the proxy's trust refuses is the
        // proxy's failure, not the target's.
        if let proxy, let through, proxy.server.scheme == .https {
            switch await ProxyTunnel.secure(channel, to: proxy.server, timeout: timeout) {
            case .established(let elapsed, let certificate, let version):
                let shown = certificate.map { ConnectionProber.summary($0) }
                let subject = shown?.subject.map { ", subject \($0)" } ?? ""
                let checked = proxy.server.trust.insecure ? "certificate NOT verified (--proxy-insecure)" : "certificate verified"
                result.rungs.append(ProbeRung(name: "proxyTls", ok: true, ms: elapsed.milliseconds,
                                              detail: "\(checked)\(subject)" + (version.map { ", \(TLSHandshake.name($0))" } ?? "")))
            case .failed(let why, let elapsed):
                try? await channel.close()
                result.rungs.append(ProbeRung(name: "proxyTls", ok: false, ms: elapsed.milliseconds, detail: why))
                return finish(.proxyUnreachable, "TLS to \(through) failed: \(why)")
            case .timeout:
                try? await channel.close()
                result.rungs.append(ProbeRung(name: "proxyTls", ok: false, ms: nil, detail: "no handshake within \(TimeFormatting.duration(timeout))"))
                return finish(.timeout, "the TLS handshake with \(through) did not finish within \(TimeFormatting.duration(timeout))")
            }
        }

        // A plain-http URL through an HTTP proxy: no tunnel, the request itself in absolute
        // form; what the proxy answers for itself is the proxy rung's verdict.
        if let proxy, let through, case .url(let url) = target.kind, ProxyForwarding.forwards(url, through: proxy.server) {
            let answer: Result<ChannelHTTPExchange.Response, any Error>
            do {
                answer = .success(try await ChannelHTTPExchange.get(url, on: channel, headers: authorization(for: url), maxBytes: Self.maxBodyBytes,
                                                                    timeout: timeout, proxy: proxy.server))
            } catch {
                answer = .failure(error)
            }
            try? await channel.close()
            if case .success(let response) = answer, let verdict = forwardingVerdict(response, url: url, through: through, proxy: proxy.server, target: target) {
                // The status is the proxy's, not the target's: no httpStatus.
                result.rungs.append(verdict.rung)
                return finish(verdict.failure, verdict.explanation)
            }
            if case .failure(let error) = answer, let refused = error as? ConnError, refused.code == .proxyAuthRequired {
                result.rungs.append(ProbeRung(name: "proxy", ok: false, ms: nil, detail: "407, its Proxy-Authenticate header malformed"))
                return finish(.proxyAuthRequired, "\(through) wants credentials (407; its Proxy-Authenticate header is malformed)")
            }
            // What every proxy turns into an answer of its own (a 502) when the target does it:
            // a close, garbage, a head past the decoder's limit, from the proxy itself.
            if case .failure(let error) = answer, let why = Self.forwardingFailure(error) {
                result.rungs.append(ProbeRung(name: "proxy", ok: false, ms: nil, detail: why))
                return finish(.proxyRefused, "\(through): \(why)")
            }
            result.rungs.append(ProbeRung(name: "proxy", ok: true, ms: nil,
                                          detail: "\(through) forwarded the request to \(target.host):\(target.port) (absolute form: no tunnel for http://)"))
            return finishHTTP(answer, url)
        }

        // The tunnel through the proxy (CONNECT, or SOCKS5's).
        if let proxy, let through {
            let socks = proxy.server.scheme == .socks5 || proxy.server.scheme == .socks5h
            // socks5h hands the proxy the name; socks5 resolves it here first.
            switch await ProxyTunnel.tunnel(on: channel, to: target.host, port: target.port, through: proxy.server, timeout: timeout) {
            case .unresolved:
                try? await channel.close()
                result.rungs.append(ProbeRung(name: "proxy", ok: false, ms: nil,
                                              detail: "\(target.host) does not resolve here (socks5:// resolves names locally; socks5h:// lets the proxy)"))
                return finish(.nxdomain, "the name \(target.host) does not resolve (socks5:// resolves it here, not at the proxy)")
            case .open(let elapsed):
                result.rungs.append(ProbeRung(name: "proxy", ok: true, ms: elapsed.milliseconds,
                                              detail: "\(through) opened a \(socks ? "SOCKS5 connection" : "tunnel") to \(target.host):\(target.port)"))
            case .authRequired(let elapsed, let challenge):
                try? await channel.close()
                let asked = socks ? "user/password" : "407" + (challenge.map { ", \($0)" } ?? "")
                result.rungs.append(ProbeRung(name: "proxy", ok: false, ms: elapsed.milliseconds, detail: asked))
                let format = "\(proxy.server.scheme.rawValue)://USER:PASSWORD@HOST:PORT"
                return finish(.proxyAuthRequired, "\(through) wants credentials (\(socks ? "SOCKS5 user/password" : "407"))"
                              + (proxy.server.user == nil ? ": put them in the proxy URL, \(format)" : ", and refused these"))
            case .targetFailed(let elapsed, let answer):
                try? await channel.close()
                let asked = authority(target)
                result.rungs.append(ProbeRung(name: "proxy", ok: false, ms: elapsed.milliseconds, detail: "\(through) could not reach \(asked): \(answer.said)"))
                return finish(answer.failure, answer.sentence(target: asked, proxy: through))
            case .refused(let elapsed, let statusLine):
                try? await channel.close()
                result.rungs.append(ProbeRung(name: "proxy", ok: false, ms: elapsed.milliseconds, detail: statusLine))
                return finish(.proxyRefused, "\(through) refused the tunnel to \(target.host):\(target.port): \(statusLine)")
            case .failed(let elapsed, let why):
                try? await channel.close()
                result.rungs.append(ProbeRung(name: "proxy", ok: false, ms: elapsed.milliseconds, detail: why))
                return finish(.proxyRefused, "\(through): \(why)")
            case .tlsFailed(let elapsed, let why):  // `tunnel` makes no TLS; `secure` above did
                try? await channel.close()
                result.rungs.append(ProbeRung(name: "proxyTls", ok: false, ms: elapsed.milliseconds, detail: why))
                return finish(.proxyUnreachable, "TLS to \(through) failed: \(why)")
            case .timeout:
                try? await channel.close()
                let what = socks ? "the SOCKS5 handshake" : "CONNECT"
                result.rungs.append(ProbeRung(name: "proxy", ok: false, ms: nil, detail: "no answer to \(what) within \(TimeFormatting.duration(timeout))"))
                return finish(.timeout, "\(through) did not answer \(what) within \(TimeFormatting.duration(timeout))")
            }
        }

        // TLS
        if target.usesTLS {
            let serverName = ClientTLS.serverName(for: target.host)
            switch await ConnectionProber.handshake(on: channel, serverName: serverName, trust: trust, timeout: timeout) {
            case .established(let elapsed, let certificate):
                if let certificate {
                    result.certificate = ProbeCertificate(commonName: certificate.commonName, subject: certificate.subject,
                                                          notValidAfter: certificate.notValidAfter, verified: !insecure,
                                                          tlsVersion: certificate.tlsVersion)
                }
                let subject = certificate?.subject.map { ", subject \($0)" } ?? ""
                let expiry = subject + (certificate.map { ", valid until \(JSONOutput.timestamp($0.notValidAfter).prefix(10))" } ?? "")
                result.rungs.append(ProbeRung(name: "tls", ok: true, ms: elapsed.milliseconds,
                                              detail: (insecure ? "handshake done, certificate NOT verified (--insecure)"
                                                      : "certificate verified" + (trust.caFile.map { " against \($0) (--cacert)" } ?? "")) + expiry))
            case .failed(var why, let elapsed):
                try? await channel.close()
                // "Verify failed" is all BoringSSL says: which check, read from the certificate
                // (directly reached servers; through a proxy the generic words stay).
                if CertificateDiagnosis.isVerificationFailure(why), proxy == nil, let ip = result.address,
                    let diagnosis = await CertificateDiagnosis.explain(host: target.host, address: ip, port: target.port, trust: trust,
                                                                       timeout: timeout, egress: egress)
                {
                    why = "certificate verification failed: \(diagnosis)"
                }
                result.rungs.append(ProbeRung(name: "tls", ok: false, ms: elapsed.milliseconds, detail: why))
                return finish(.tlsError, "the TLS handshake with \(target.host) failed: \(why)")
            case .timeout:
                try? await channel.close()
                result.rungs.append(ProbeRung(name: "tls", ok: false, ms: nil, detail: "no handshake within \(TimeFormatting.duration(timeout))"))
                return finish(.timeout, "the TLS handshake with \(target.host) did not finish within \(TimeFormatting.duration(timeout))")
            }
        }
        // HTTP, on the same connection.
        guard case .url(let url) = target.kind else {
            try? await channel.close()
            return finish(nil, "\(target.host):\(target.port) accepts connections")
        }
        let answer: Result<ChannelHTTPExchange.Response, any Error>
        do {
            answer = .success(try await ChannelHTTPExchange.get(url, on: channel, headers: authorization(for: url), maxBytes: Self.maxBodyBytes,
                                                                timeout: timeout))
        } catch {
            answer = .failure(error)
        }
        try? await channel.close()
        return finishHTTP(answer, url)
    }

    /// A forwarded request that got no answer, as the proxy's failure; nil for the deadline and
    /// an answer too large (the target's, as without a proxy).
    static func forwardingFailure(_ error: any Error) -> String? {
        switch error {
        case ChannelHTTPExchange.Failure.timeout, ChannelHTTPExchange.Failure.bodyTimeout, ChannelHTTPExchange.Failure.tooLarge: nil
        case ChannelHTTPExchange.Failure.closedEarly: "the proxy closed the connection before answering"
        case HTTPParserError.headerOverflow: "the proxy's answer has a head larger than conn reads"
        case is HTTPParserError: "the proxy answered something that is not HTTP"
        default: nil
        }
    }

    /// What an HTTP proxy's answer to a forwarded request says of itself, as the proxy rung's
    /// verdict: 407, the target's failure it reports (`ProxyAnswer`), its own rules (squid's
    /// `X-Squid-Error` on a 4xx/5xx); nil when the answer is the target's.
    private func forwardingVerdict(_ response: ChannelHTTPExchange.Response, url: URL, through: String, proxy: ProxyServer,
                                   target: ProbeTarget) -> (rung: ProbeRung, failure: ReachabilityFailure, explanation: String)? {
        let headers = response.headers.map { ($0.name, $0.value) }
        let ms = response.untilHead.milliseconds
        let asked = authority(target)
        if let answer = ProxyAnswer.read(status: response.status, reason: nil, headers: headers, toConnect: false) {
            return (ProbeRung(name: "proxy", ok: false, ms: ms, detail: "\(through) could not reach \(asked): \(answer.said)"), answer.failure,
                    answer.sentence(target: asked, proxy: through))
        }
        guard let failure = ProxyForwarding.proxyFailure(status: response.status, headers: headers, url: url, proxy: proxy, named: through)
        else { return nil }
        if failure.code == .proxyAuthRequired {
            let challenge = response.headers.first(name: "Proxy-Authenticate").map { TerminalSanitizer.sanitize(String($0.prefix(200)), keepNewlines: false) }
            let format = "\(proxy.scheme.rawValue)://USER:PASSWORD@HOST:PORT"
            return (ProbeRung(name: "proxy", ok: false, ms: ms, detail: "\(response.status)" + (challenge.map { ", \($0)" } ?? "")), .proxyAuthRequired,
                    "\(through) wants credentials (\(response.status))" + (proxy.user == nil ? ": put them in the proxy URL, \(format)" : ", and refused these"))
        }
        return (ProbeRung(name: "proxy", ok: false, ms: ms, detail: failure.message), .proxyRefused, failure.message)
    }

    /// The HTTP rung's findings.
    private struct HTTPCheck {
        var status: Int?
        var rung: ProbeRung
        var failure: ReachabilityFailure?
        var explanation: String
        /// A redirect's target, resolved against the URL asked.
        var location: String?
    }

    /// The most of an answer's body that is read.
    static let maxBodyBytes = 1 << 20

    /// The bearer token, for the configured server's origin only.
    private func authorization(for url: URL) -> [(String, String)] {
        credentials?.authorization(for: url).map { [("Authorization", $0)] } ?? []
    }

    /// The HTTP rung's verdict on an answer (or on why there was none).
    private func judge(_ answer: Result<ChannelHTTPExchange.Response, any Error>, url: URL, target: ProbeTarget) -> HTTPCheck {
        do {
            let response = try answer.get()
            let ms = response.elapsed.milliseconds
            func failed(_ failure: ReachabilityFailure, _ detail: String, _ explanation: String) -> HTTPCheck {
                HTTPCheck(status: response.status, rung: ProbeRung(name: "http", ok: false, ms: ms, detail: detail), failure: failure, explanation: explanation)
            }
            let redirect = (300..<400).contains(response.status) && response.status != 304
            if redirect, expectation.statuses?.contains(response.status) != true {
                // Judged by `probe`: followed within the origin, a verdict off it.
                guard let location = response.headers.first(name: "Location"),
                    let next = URL(string: location, relativeTo: url)?.absoluteURL, Origin(next) != nil
                else {
                    return failed(.httpStatus, "status \(response.status) without a usable Location",
                                  "\(url.absoluteString) answered \(response.status) without saying where to")
                }
                var check = failed(.redirected, "status \(response.status), to \(next.absoluteString.prefix(300))",
                                   "\(url.absoluteString) redirected to \(next.absoluteString.prefix(300))")
                check.location = next.absoluteString
                return check
            }
            let accepted = expectation.statuses?.contains(response.status) ?? (200..<400).contains(response.status)
            if !accepted {
                return failed(.httpStatus, "status \(response.status)", "\(url.absoluteString) answered \(response.status)")
            }
            // The server's health answers as an API does; a sign-in page in its place is a portal's
            // (the outbox's rule: the Content-Type, or markup at the body's head).
            if target.isServer, response.looksLikeHTMLPage {
                return failed(.portal, "status \(response.status), an HTML page",
                              "an HTML page answered in place of the server: a captive portal or a proxy is in the way")
            }
            if let needle = expectation.bodyContains, !String(buffer: response.body).contains(needle) {
                // Said as it was asked for (--expect-body, an internet endpoint's TEXT), made safe to show.
                let shown = "\"" + TerminalSanitizer.sanitize(String(needle.prefix(80)), keepNewlines: false) + (needle.count > 80 ? "…" : "") + "\""
                return failed(.unexpectedBody, "status \(response.status), body lacks \(shown)",
                              "\(url.absoluteString) answered \(response.status), but its body does not contain \(shown)")
            }
            return HTTPCheck(status: response.status, rung: ProbeRung(name: "http", ok: true, ms: ms, detail: "status \(response.status)"),
                             failure: nil, explanation: target.isServer ? "the server answers" : "\(url.absoluteString) answers")
        } catch ChannelHTTPExchange.Failure.timeout {
            return HTTPCheck(status: nil, rung: ProbeRung(name: "http", ok: false, ms: nil, detail: "no answer within \(TimeFormatting.duration(timeout))"),
                             failure: .timeout, explanation: "\(url.absoluteString) accepted the connection but did not answer within \(TimeFormatting.duration(timeout))")
        } catch ChannelHTTPExchange.Failure.bodyTimeout(let status) {
            // In the transport's words, as every other path says it.
            let described = HTTPTransport.describe(ChannelHTTPExchange.Failure.bodyTimeout(status: status), url: url, timeout: timeout)
            return HTTPCheck(status: status, rung: ProbeRung(name: "http", ok: false, ms: nil, detail: "status \(status), body not ended within \(TimeFormatting.duration(timeout))"),
                             failure: .timeout, explanation: described.message)
        } catch ChannelHTTPExchange.Failure.tooLarge {
            return HTTPCheck(status: nil, rung: ProbeRung(name: "http", ok: false, ms: nil, detail: "answer larger than 1 MiB"),
                             failure: .unexpectedBody, explanation: "\(url.absoluteString) answered with more than 1 MiB")
        } catch let error as HTTPParserError {
            // It answered, but its bytes are not HTTP (a control character in a header, another
            // protocol's greeting): said as such, not as a connection that closed.
            let why = HTTPTransport.plainWords(String(describing: error))
            return HTTPCheck(status: nil, rung: ProbeRung(name: "http", ok: false, ms: nil, detail: "an answer that is not HTTP (\(why))"),
                             failure: .unexpectedBody,
                             explanation: "\(url.absoluteString) answered, but not in HTTP (\(why)): not an HTTP server, or something on the way garbles its answers")
        } catch {
            return HTTPCheck(status: nil, rung: ProbeRung(name: "http", ok: false, ms: nil, detail: "closed without an HTTP answer"),
                             failure: .unexpectedBody, explanation: "\(url.absoluteString) closed the connection without an HTTP answer: not an HTTP server?")
        }
    }

    private func literalAddress(_ target: ProbeTarget) -> ResolvedAddress? {
        if IPLiteral.isIPv6(target.host) { return ResolvedAddress(family: 6, ip: target.host, port: target.port) }
        if IPLiteral.isIPv4(target.host) { return ResolvedAddress(family: 4, ip: target.host, port: target.port) }
        return nil
    }

    private func isURL(_ target: ProbeTarget) -> Bool {
        if case .url = target.kind { return true }
        return false
    }

    private func urlString(_ target: ProbeTarget) -> String? {
        if case .url(let url) = target.kind { return url.absoluteString }
        return nil
    }

    private func bracketed(_ address: ResolvedAddress) -> String { address.family == 6 ? "[\(address.ip)]" : address.ip }

    /// `host:port` as a URL writes it (`[::1]:8080`), for what a proxy said of the target.
    private func authority(_ target: ProbeTarget) -> String { (target.host.contains(":") ? "[\(target.host)]" : target.host) + ":\(target.port)" }
}
