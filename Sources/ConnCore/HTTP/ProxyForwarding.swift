import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix

/// A plain-http request through an HTTP proxy, the way curl and browsers send it: to the proxy,
/// with the whole URL in the request line (absolute form, RFC 9112 §3.2.2) and the proxy's
/// credentials in `Proxy-Authorization`. CONNECT stays for https://, ws:// and wss://: most
/// proxies allow CONNECT to port 443 only (Debian's squid: `http_access deny CONNECT
/// !SSL_ports`), so a tunnel to an http:// back end on 8080 is refused where a forwarded request
/// is carried. AsyncHTTPClient tunnels every scheme, so these requests are conn's own, on
/// SwiftNIO: `HTTPTransport` for the commands' requests, the probe's ladder, the json clock.
///
/// The proxy sees the request, the bearer token included when the URL is the configured
/// server's (in clear on the wire either way: docs/security.md).
public enum ProxyForwarding {
    /// Whether a request to `url` through `proxy` is forwarded in absolute form (http:// through
    /// an http:// or https:// proxy); every other pair is a tunnel.
    public static func forwards(_ url: URL, through proxy: ProxyServer) -> Bool {
        url.scheme?.lowercased() == "http" && (proxy.scheme == .http || proxy.scheme == .https)
    }

    /// `Basic …` for a proxy with a user; nil without one.
    public static func authorization(for proxy: ProxyServer) -> String? {
        proxy.user.map { "Basic " + Data("\($0):\(proxy.password ?? "")".utf8).base64EncodedString() }
    }

    /// A connection to the proxy, made secure for an https:// one, ready for requests in absolute
    /// form: `url` names the request's target in errors, `named` the proxy ("the proxy URL (from
    /// SOURCE)"). A proxy that cannot be reached, or whose TLS fails, is `proxyUnreachable`.
    public static func connect(to proxy: ProxyServer, for url: URL, named: String, bootstrap: ClientBootstrap, egress: Egress = .any,
                               timeout: Duration) async throws -> any Channel {
        let clock = ContinuousClock()
        let start = clock.now
        let channel = try await ProxiedConnection.dial(proxy, for: url, named: named, bootstrap: bootstrap, egress: egress, timeout: timeout)
        guard proxy.scheme == .https else { return channel }
        let outcome = await ProxyTunnel.securing(channel, to: proxy, timeout: max(.zero, timeout - start.duration(to: clock.now)))
        guard let failure = ProxiedConnection.failure(outcome, proxy: proxy, host: proxy.host, target: url.absoluteString, named: named) else {
            return channel
        }
        try? await channel.close()
        if failure is ProxiedConnection.TunnelTimeout {
            throw ConnError.temporary(.timeout, "the TLS handshake with \(named) did not finish within \(TimeFormatting.duration(timeout))",
                                      hint: HTTPTransport.timeoutHint)
        }
        throw failure
    }

    /// The proxy's own answer as an error, when it is one: 407 (`proxyAuthRequired`, 77), the
    /// target's failure it reports (`ProxyAnswer`: refused, timeout, …), its rules (squid's
    /// `X-Squid-Error` on a 4xx/5xx of its own, `proxyRefused`). nil: the target's answer.
    public static func proxyFailure(status: Int, headers: [(String, String)], url: URL, proxy: ProxyServer, named: String) -> ConnError? {
        // tinyproxy's own pages name it as the server (a forwarded answer keeps the target's
        // Server and gains a Via): its 401 is how it refuses wrong proxy credentials.
        let ownPage = headers.contains { $0.0.caseInsensitiveCompare("Server") == .orderedSame && $0.1.lowercased().hasPrefix("tinyproxy") }
            && !headers.contains { $0.0.caseInsensitiveCompare("Via") == .orderedSame }
        if status == 407 || (ownPage && status == 401) {
            let challenge = headers.first { $0.0.caseInsensitiveCompare("Proxy-Authenticate") == .orderedSame }
                .map { TerminalSanitizer.sanitize(String($0.1.prefix(200)), keepNewlines: false) }
            let given = proxy.user != nil
            return ConnError(code: .proxyAuthRequired,
                             message: "\(named) wants credentials (407\(challenge.map { ", \($0)" } ?? "")) to reach \(url.absoluteString)"
                                 + (given ? ", and refused these" : ""),
                             hint: given ? "Check the user and password in the proxy URL." : "Put them in the proxy URL: \(proxy.scheme.rawValue)://USER:PASSWORD@HOST:PORT.",
                             exitStatus: .permission)
        }
        if let answer = ProxyAnswer.read(status: status, reason: nil, headers: headers, toConnect: false) {
            return answer.error(target: url.absoluteString, proxy: named)
        }
        let squid = headers.first(where: { $0.0.caseInsensitiveCompare("X-Squid-Error") == .orderedSame })?.1
        if (400...599).contains(status), squid != nil || ownPage {
            let said = squid.map { TerminalSanitizer.sanitize(String($0.prefix(80)), keepNewlines: false) } ?? "tinyproxy"
            return ConnError(code: .proxyRefused, message: "\(named) refused the request to \(url.absoluteString): \(status) (\(said))",
                             hint: "The proxy's access rules do not allow it; ask its administrator, or go without it: --noproxy HOST.",
                             exitStatus: .unavailable)
        }
        return nil
    }

    /// One request through `proxy` in absolute form, on a connection of its own (closed after
    /// the answer), within `timeout`. The answer is the target's; the proxy's own failures are
    /// thrown (`proxyFailure`).
    public static func send(method: HTTPMethod, url: URL, headers: [(String, String)], body: Data?, through proxy: ProxyServer, named: String,
                            maxBytes: Int, timeout: Duration, onBody: (@Sendable (Int, Int?) -> Void)? = nil,
                            bodyFile: ResponseBodyFile? = nil) async throws -> ChannelHTTPExchange.Response {
        let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.nanoseconds(timeout.nanoseconds))
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
        let start = ContinuousClock.now
        let channel = try await connect(to: proxy, for: url, named: named, bootstrap: bootstrap, timeout: timeout)
        defer { channel.close(promise: nil) }
        let collector = ResponseCollector(maxBytes: maxBytes)
        collector.onBody = onBody
        if let bodyFile {
            try bodyFile.reset()
            collector.bodySink = { try bodyFile.append($0) }
        }
        let sniffer = guardAnswers(of: collector, url: url, proxy: proxy)
        try await channel.eventLoop.submit {
            try channel.pipeline.syncOperations.addHandler(sniffer)
            try channel.pipeline.syncOperations.addHTTPClientHandlers()
            try channel.pipeline.syncOperations.addHandler(NIOHTTPResponseDecompressor(limit: .ratio(64)))
            try channel.pipeline.syncOperations.addHandler(collector)
        }.get()
        var extra = headers  // the decompressor adds Accept-Encoding
        if let body { extra.append(("Content-Length", String(body.count))) } else if method != .GET, method != .HEAD {
            extra.append(("Content-Length", "0"))
        }
        let head = ChannelHTTPExchange.requestHead(for: url, method: method, headers: extra, proxy: proxy)
        let payload = body.map { ByteBuffer(bytes: $0) }
        let connection = ChannelHTTPExchange.Connection(channel: channel, collector: collector)
        let remaining = max(.zero, timeout - start.duration(to: .now))
        let response: ChannelHTTPExchange.Response
        do {
            response = try await channel.eventLoop.flatSubmit {
                ChannelHTTPExchange.request(head, body: payload, on: connection, timeout: remaining, from: start)
            }.get()
        } catch {
            throw unreadableAuthentication(error, sniffer: sniffer, url: url, proxy: proxy, named: named) ?? error
        }
        let answerHeaders = response.headers.map { ($0.name, $0.value) }
        if let failure = proxyFailure(status: response.status, headers: answerHeaders, url: url, proxy: proxy, named: named) { throw failure }
        return response
    }
}

extension ProxyForwarding {
    /// The status of the first answer on a connection to a proxy, read from its first bytes ahead
    /// of the HTTP decoder: a 407 whose headers the decoder refuses (a control character in its
    /// realm, as a broken or hostile proxy sends) is still a 407, the proxy's word that it wants
    /// credentials. Passes every byte on unchanged; touched only on the channel's event loop.
    public final class StatusSniffer: ChannelInboundHandler, @unchecked Sendable {
        public typealias InboundIn = ByteBuffer
        public typealias InboundOut = ByteBuffer
        public private(set) var status: Int?
        private var seen: [UInt8] = []

        public init() {}

        public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            if status == nil, seen.count < 12 {
                seen += unwrapInboundIn(data).readableBytesView.prefix(12 - seen.count)
                // "HTTP/1.1 407"
                if seen.count == 12, seen.starts(with: Array("HTTP/1.".utf8)), seen[8] == UInt8(ascii: " ") {
                    status = Int(String(decoding: seen[9..<12], as: UTF8.self))
                }
            }
            context.fireChannelRead(data)
        }
    }

    /// What every exchange with a forwarding proxy sets up before its request: the collector
    /// completes on the head of the proxy's own answer (`ResponseCollector.headSuffices`), and
    /// the sniffer returned, put in the pipeline ahead of the HTTP decoder, sees a 407 the
    /// decoder refuses (`unreadableAuthentication`).
    public static func guardAnswers(of collector: ResponseCollector, url: URL, proxy: ProxyServer) -> StatusSniffer {
        collector.headSuffices = { head in
            proxyFailure(status: Int(head.status.code), headers: head.headers.map { ($0.name, $0.value) }, url: url, proxy: proxy, named: "the proxy") != nil
        }
        return StatusSniffer()
    }

    /// An answer the decoder refused, when the sniffer saw a 407 at its start: the proxy wants
    /// credentials (its challenge unreadable, not shown); nil for anything else.
    public static func unreadableAuthentication(_ error: any Error, sniffer: StatusSniffer?, url: URL, proxy: ProxyServer, named: String) -> ConnError? {
        guard error is HTTPParserError, sniffer?.status == 407 else { return nil }
        var failure = proxyFailure(status: 407, headers: [], url: url, proxy: proxy, named: named)
        failure?.message += " (its Proxy-Authenticate header is malformed)"
        return failure
    }
}
