import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import Synchronization

/// conn's HTTP client: AsyncHTTPClient with a deadline on every request, the bearer token only
/// for the configured server's origin, redirects by conn's own policy (`RedirectPolicy`), and
/// errors translated into `ConnError`s a person can act on.
///
/// A deadline is not optional: every request carries the configured timeout or its own. And
/// AsyncHTTPClient's own retry of failed connection attempts is off: left on, a refused
/// connection is retried until the deadline (seen taking 90 s without one, 20 s with one).
public final class HTTPTransport: Sendable {
    private let client: HTTPClient
    private let credentials: Credentials?
    private let defaultTimeout: Duration
    private let logger: Logger
    private let proxies: ProxySettings
    /// How servers' certificates are checked: a refusal is explained against it.
    private let trust: ServerTrust
    /// The client's configuration, for the clients made per proxy.
    private let clientConfiguration: HTTPClient.Configuration
    /// A client per proxy in use (AsyncHTTPClient takes its proxy per client), made when first needed.
    private let proxiedClients = Mutex<[ProxyServer: HTTPClient]>([:])
    /// The relays to the proxies in use (one per proxy).
    private let relays = Mutex<[ProxyServer: ProxyRelay]>([:])

    public init(timeout: Duration, credentials: Credentials?, trust: ServerTrust, proxies: ProxySettings = .none, logger: Logger) {
        var configuration = HTTPClient.Configuration()
        // A CA file that cannot be read here was refused when it was given; the system's store then.
        if trust != .system { configuration.tlsConfiguration = (try? ClientTLS.configuration(trust)) ?? ClientTLS.configuration(insecure: trust.insecure) }
        configuration.timeout = .init(connect: .nanoseconds(Int64(timeout.nanoseconds)), read: .nanoseconds(Int64(timeout.nanoseconds)))
        configuration.decompression = .enabled(limit: .ratio(64))
        // A refused connection is an answer ("nothing listens there"), not a reason to keep
        // trying until the deadline: conn's callers (outbox, watch) do their own retries.
        configuration.connectionPool.retryConnectionEstablishment = false
        // Redirects are conn's decision (see `RedirectPolicy`): AsyncHTTPClient would turn a
        // redirected POST into a GET, re-post a body to another host, and follow https → http.
        configuration.redirectConfiguration = .disallow
        self.client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        self.clientConfiguration = configuration
        self.proxies = proxies
        self.trust = trust
        self.credentials = credentials
        self.defaultTimeout = timeout
        self.logger = logger
    }

    /// A transport set up from the resolved configuration.
    public convenience init(configuration: ConnConfiguration, logger: Logger) {
        self.init(timeout: configuration.timeout, credentials: configuration.credentials, trust: configuration.serverTrust,
                  proxies: configuration.proxy, logger: logger)
    }

    /// Runs `body` with a transport and shuts it down afterwards, whatever happens.
    public static func with<Result: Sendable>(
        configuration: ConnConfiguration, logger: Logger,
        _ body: (HTTPTransport) async throws -> Result
    ) async throws -> Result {
        try await with(timeout: configuration.timeout, credentials: configuration.credentials, trust: configuration.serverTrust,
                       proxies: configuration.proxy, logger: logger, body)
    }

    /// The same with credentials of the caller's own (a sign-in's token, or none at all).
    public static func with<Result: Sendable>(
        timeout: Duration, credentials: Credentials?, trust: ServerTrust, proxies: ProxySettings = .none, logger: Logger,
        _ body: (HTTPTransport) async throws -> Result
    ) async throws -> Result {
        let transport = HTTPTransport(timeout: timeout, credentials: credentials, trust: trust, proxies: proxies, logger: logger)
        do {
            let result = try await body(transport)
            try? await transport.shutdown()
            return result
        } catch {
            try? await transport.shutdown()
            throw error
        }
    }

    private static let silentLogger = Logger(label: "conn.http", factory: { _ in SwiftLogNoOpLogHandler() })

    public func shutdown() async throws {
        for proxied in proxiedClients.withLock({ Array($0.values) }) { try? await proxied.shutdown() }
        for relay in relays.withLock({ Array($0.values) }) { await relay.close() }
        try await client.shutdown()
    }

    /// The client for a request to `url` that `decision` sends: direct, or through a relay that
    /// makes the tunnel through the proxy (`ProxyRelay`: AsyncHTTPClient's own proxy support
    /// cannot speak TLS or SOCKS5 with credentials to a proxy, nor read a refused CONNECT).
    private func client(for decision: ProxySettings.Decision) async throws -> HTTPClient {
        guard let server = decision.server else { return client }
        let relay = try await relay(for: server, source: decision.source ?? "the settings")
        // The relay adds the proxy's own credentials; the client proves itself with the relay's secret.
        let proxy = HTTPClient.Configuration.Proxy.server(host: "127.0.0.1", port: relay.port,
                                                          authorization: .basic(username: relay.clientUser, password: relay.clientPassword))
        return proxiedClients.withLock { clients -> HTTPClient in
            if let existing = clients[server] { return existing }
            var configuration = clientConfiguration
            configuration.proxy = proxy
            let made = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
            clients[server] = made
            return made
        }
    }

    /// The relay to a proxy, started when first needed.
    private func relay(for server: ProxyServer, source: String) async throws -> ProxyRelay {
        if let running = relays.withLock({ $0[server] }) { return running }
        let started = try await ProxyRelay.start(to: server, through: "the proxy \(server.display) (from \(source))", timeout: defaultTimeout,
                                                 group: HTTPClient.defaultEventLoopGroup)
        let (kept, extra) = relays.withLock { relays -> (ProxyRelay, ProxyRelay?) in
            if let running = relays[server] { return (running, started) }
            relays[server] = started
            return (started, nil)
        }
        if let extra { await extra.close() }  // another request started one meanwhile
        return kept
    }

    /// One exchange, redirects included, within the request's timeout as a whole: a server that
    /// trickles its body a byte a second is cut off at the deadline, not kept on by each byte.
    public func send(_ exchange: HTTPExchangeRequest) async throws -> HTTPExchangeResponse {
        let timeout = exchange.timeout ?? defaultTimeout
        do {
            return try await Deadline.run(within: timeout) { try await self.sendFollowing(exchange) }
        } catch is Deadline.Expired {
            throw ConnError.temporary(
                .timeout, "\(exchange.url.absoluteString) did not answer in full within \(TimeFormatting.duration(timeout))",
                hint: HTTPTransport.timeoutHint)
        }
    }

    private func sendFollowing(_ exchange: HTTPExchangeRequest) async throws -> HTTPExchangeResponse {
        let clock = ContinuousClock()
        let start = clock.now
        var url = exchange.url
        var redirects = SameOriginRedirects(from: exchange.url)
        while true {
            var response = try await sendOnce(exchange, to: url)
            guard exchange.redirects == .sameOrigin,
                let next = try redirects.next(status: response.status, location: response.header("Location"), from: url)
            else {
                response.elapsed = start.duration(to: clock.now)
                response.url = url
                return response
            }
            logger.debug("\(response.status) from \(url.absoluteString): following to \(next.absoluteString)")
            url = next
        }
    }

    /// One request to `url`, no redirects followed.
    private func sendOnce(_ exchange: HTTPExchangeRequest, to url: URL) async throws -> HTTPExchangeResponse {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = exchange.method
        for (name, value) in exchange.headers { request.headers.add(name: name, value: value) }
        let authorization = credentials?.authorization(for: url)
        if let authorization, request.headers["Authorization"].isEmpty {
            request.headers.add(name: "Authorization", value: authorization)
        }
        request.headers.add(name: "User-Agent", value: "conn/\(ConnVersion.current)")
        if let body = exchange.body { request.body = .bytes(ByteBuffer(bytes: body)) }

        let timeout = exchange.timeout ?? defaultTimeout
        let route = try proxies.decision(for: url)
        let forwarded = route.server.map { ProxyForwarding.forwards(url, through: $0) } ?? false
        logger.debug("\(exchange.method.rawValue) \(url.absoluteString)", metadata: [
            "timeout": "\(timeout)", "authorization": authorization == nil ? "none" : "<redacted>",
            "proxy": "\(route.server?.display ?? "none") (\(route.reason))\(forwarded ? ", absolute form" : "")",
        ])
        let clock = ContinuousClock()
        let start = clock.now
        do {
            if let proxy = route.server, forwarded {
                // The head adds its own User-Agent and Host.
                let headers = request.headers.filter { $0.name.caseInsensitiveCompare("User-Agent") != .orderedSame }.map { ($0.name, $0.value) }
                return try await forward(exchange, to: url, headers: headers, through: proxy,
                                         source: route.source ?? "the settings", timeout: timeout)
            }
            let client = try await client(for: route)
            // AsyncHTTPClient's own debug lines (pool scheduling) would drown conn's under -v.
            let response = try await client.execute(request, timeout: .nanoseconds(Int64(timeout.nanoseconds)), logger: Self.silentLogger)
            let body: ByteBuffer
            var received: Int?
            // For a progress line: the length the answer announces.
            let expected = response.headers.first(name: "Content-Length").flatMap(Int.init)
            if let kept = exchange.keepsFirstBytes {
                var collected = ByteBuffer()
                var total = 0
                for try await chunk in response.body {
                    total += chunk.readableBytes
                    guard total <= exchange.maxResponseBytes else { throw NIOTooManyBytesError(maxBytes: exchange.maxResponseBytes) }
                    if collected.readableBytes < kept, let part = chunk.getSlice(at: chunk.readerIndex, length: min(chunk.readableBytes, kept - collected.readableBytes)) {
                        var part = part
                        collected.writeBuffer(&part)
                    }
                }
                body = collected
                received = total
            } else if let file = exchange.bodyFile {
                try file.reset()
                for try await chunk in response.body {
                    guard file.size + chunk.readableBytes <= exchange.maxResponseBytes else { throw NIOTooManyBytesError(maxBytes: exchange.maxResponseBytes) }
                    try file.append(chunk)
                    exchange.onBodyProgress?(file.size, expected)
                }
                body = ByteBuffer()
                received = file.size
            } else if let progress = exchange.onBodyProgress {
                var collected = ByteBuffer()
                for try await chunk in response.body {
                    guard collected.readableBytes + chunk.readableBytes <= exchange.maxResponseBytes else { throw NIOTooManyBytesError(maxBytes: exchange.maxResponseBytes) }
                    var chunk = chunk
                    collected.writeBuffer(&chunk)
                    progress(collected.readableBytes, expected)
                }
                body = collected
            } else {
                body = try await response.body.collect(upTo: exchange.maxResponseBytes)
            }
            let elapsed = start.duration(to: clock.now)
            logger.debug("\(response.status.code) from \(url.absoluteString) in \(TimeFormatting.duration(elapsed))")
            var answer = HTTPExchangeResponse(
                status: Int(response.status.code),
                headers: response.headers.map { ($0.name, $0.value) },
                body: Data(buffer: body), elapsed: elapsed, url: url)
            answer.receivedBodyBytes = received
            return answer
        } catch is NIOTooManyBytesError, ChannelHTTPExchange.Failure.tooLarge {
            throw ConnError.dataError(
                .responseTooLarge,
                "the answer from \(url.absoluteString) is larger than \(exchange.maxResponseBytes) bytes")
        } catch NIOHTTPDecompression.DecompressionError.limit {
            // A compressed answer that inflates past 64 times its size: a decompression bomb, or
            // a broken server; either way, bad data rather than an unreachable host.
            throw ConnError.dataError(
                .decompressionLimit,
                "the answer from \(url.absoluteString) decompresses to more than 64 times its size; it was not read")
        } catch {
            // A forwarded request's errors already name the proxy.
            if forwarded, let described = error as? ConnError { throw described }
            if let proxy = route.server {
                // Through an https:// proxy, what failed between the relay and the proxy.
                if let failure = relays.withLock({ $0[proxy] })?.takeFailure() {
                    throw ConnError(code: failure.code, message: failure.message + " (on the way to \(url.absoluteString))", hint: failure.hint,
                                    exitStatus: failure.exitStatus)
                }
                throw Self.describe(error, url: url, proxy: proxy, source: route.source ?? "", timeout: timeout)
            }
            throw await Self.explainingCertificate(Self.describe(error, url: url, timeout: timeout), url: url, trust: trust, timeout: timeout)
        }
    }

    /// A plain-http request through an HTTP proxy, in absolute form (`ProxyForwarding`).
    private func forward(_ exchange: HTTPExchangeRequest, to url: URL, headers: [(String, String)], through proxy: ProxyServer, source: String,
                         timeout: Duration) async throws -> HTTPExchangeResponse {
        let named = "the proxy \(proxy.display) (from \(source))"
        let response = try await ProxyForwarding.send(method: exchange.method, url: url, headers: headers, body: exchange.body, through: proxy,
                                                      named: named, maxBytes: exchange.maxResponseBytes, timeout: timeout,
                                                      onBody: exchange.onBodyProgress, bodyFile: exchange.bodyFile)
        logger.debug("\(response.status) from \(url.absoluteString) through \(proxy.display) in \(TimeFormatting.duration(response.elapsed))")
        var answer = HTTPExchangeResponse(status: response.status, headers: response.headers.map { ($0.name, $0.value) },
                                          body: Data(buffer: response.body), elapsed: response.elapsed, url: url)
        // Read whole (up to maxResponseBytes) on this path; only the first bytes are kept.
        if let file = exchange.bodyFile {
            answer.receivedBodyBytes = file.size
        } else if let kept = exchange.keepsFirstBytes, answer.body.count > kept {
            answer.receivedBodyBytes = answer.body.count
            answer.body = answer.body.prefix(kept)
        } else if exchange.keepsFirstBytes != nil {
            answer.receivedBodyBytes = answer.body.count
        }
        return answer
    }

    /// An error on the way through a proxy: the proxy's failures as such (unreachable, 407, a
    /// refused tunnel), anything else as the target's, saying which proxy carried it.
    static func describe(_ error: any Error, url: URL, proxy: ProxyServer, source: String, timeout: Duration) -> ConnError {
        let through = "the proxy \(proxy.display) (from \(source))"
        if let clientError = error as? HTTPClientError {
            // The client only ever speaks to conn's relay, which reads the proxy's answers itself
            // (a 407 among them: `takeFailure`) and closes: what is left is a tunnel that did not open.
            switch clientError {
            case .invalidProxyResponse, .httpProxyHandshakeTimeout:
                return ConnError(code: .proxyRefused, message: "\(through) did not open the way to \(url.absoluteString)",
                                 hint: "The proxy refused the tunnel: wrong credentials, its access rules (this host or port), or not a proxy of this kind.",
                                 exitStatus: .unavailable)
            default:
                break
            }
        }
        let described = describe(error, url: url, timeout: timeout)
        // A connection that never reached the proxy is the proxy's failure, not the target's:
        // in the words the live link and clock-offset use for it.
        if let unreachable = ProxiedConnection.unreachable(error, proxy: proxy, named: through) {
            return ConnError(code: unreachable.code, message: unreachable.message + " (on the way to \(url.absoluteString))",
                             hint: unreachable.hint, exitStatus: unreachable.exitStatus)
        }
        return ConnError(code: described.code, message: described.message + " (through \(through))", hint: described.hint, exitStatus: described.exitStatus)
    }

    /// A refused certificate's error, saying which check failed, read from the certificate
    /// (`CertificateDiagnosis`; a server reached directly); any other error as it is.
    public static func explainingCertificate(_ described: ConnError, url: URL, trust: ServerTrust, timeout: Duration,
                                             egress: Egress = .any) async -> ConnError {
        guard described.code == .tlsError, CertificateDiagnosis.isVerificationFailure(described.message), let host = url.host,
            let why = await CertificateDiagnosis.explain(host: host, port: url.port ?? 443, trust: trust, timeout: timeout, egress: egress)
        else { return described }
        var explained = described
        explained.message = "\(url.absoluteString): TLS handshake failed: certificate verification failed: \(why)"
        if trust.caFile == nil { explained.hint = "For a server signed by a CA of its own, --cacert FILE with that CA; for a test server, --insecure." }
        return explained
    }

    /// What to do about a deadline that passed, wherever conn reports one.
    public static let timeoutHint = "Raise --timeout, or check that the server is up."

    /// Turns a client error (AsyncHTTPClient's, SwiftNIO's, or a `ChannelHTTPExchange.Failure`)
    /// into what a person needs to know: which URL, what happened.
    public static func describe(_ error: any Error, url: URL, timeout: Duration) -> ConnError {
        if let described = error as? ConnError { return described }
        let target = url.absoluteString
        switch error {
        case ChannelHTTPExchange.Failure.timeout, ChannelError.connectTimeout:
            return .temporary(.timeout, "\(target) did not answer within \(TimeFormatting.duration(timeout))", hint: HTTPTransport.timeoutHint)
        case ChannelHTTPExchange.Failure.bodyTimeout(let status):
            return .temporary(.timeout, "\(target) answered \(status), but its body did not end within \(TimeFormatting.duration(timeout))",
                              hint: HTTPTransport.timeoutHint)
        case ChannelHTTPExchange.Failure.closedEarly:
            return .temporary(.connectionClosed, "\(target) closed the connection before answering")
        case ChannelHTTPExchange.Failure.tooLarge:
            return .dataError(.responseTooLarge, "the answer from \(target) is larger than conn reads for it")
        default:
            break
        }
        if let clientError = error as? HTTPClientError {
            switch clientError {
            case .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout:
                return .temporary(.timeout, "\(target) did not answer within \(TimeFormatting.duration(timeout))", hint: HTTPTransport.timeoutHint)
            case .remoteConnectionClosed:
                return .temporary(.connectionClosed, "\(target) closed the connection before answering")
            default:
                break
            }
        }
        switch ConnectFailure(error) {
        case .refused:
            return .unavailable(.refused, "\(target) refused the connection: the host is up, but nothing listens on that port")
        case .noRoute:
            return .unavailable(.noRoute, "\(target): there is no route to \(url.host ?? "the host")", hint: "Check the network connection and the address.")
        case .nameNotResolved:
            return .unavailable(.nxdomain, "\(target): the name \(url.host ?? "") does not resolve", hint: "Check the spelling, or the DNS settings.")
        case nil:
            break
        }
        let text = String(describing: error)
        if text.localizedCaseInsensitiveContains("ssl") || text.localizedCaseInsensitiveContains("tls")
            || text.localizedCaseInsensitiveContains("certificate")
        {
            return .unavailable(.tlsError, "\(target): TLS handshake failed: \(TLSHandshake.describe(error))",
                                hint: "For a test server with a self-signed certificate, use --insecure.")
        }
        // The server was reached: its answer is what is wrong.
        if error is HTTPParserError {
            return .unavailable(.unreachable, "\(target) answered, but not in HTTP: \(Self.plainWords(text))",
                                hint: "Not an HTTP server on that port, or something on the way garbles its answers (`conn probe -v` shows each step).")
        }
        // The system's words for a failed read or write, not the library's type and call.
        if let io = error as? IOError {
            return .unavailable(.unreachable, "cannot reach \(target): the connection failed: \(String(cString: strerror(io.errnoCode)).lowercased())")
        }
        return .unavailable(.unreachable, "cannot reach \(target): \(Self.plainWords(text))")
    }

    /// An error's description without the library's type names (`HTTPClientError.x`,
    /// `NIOCore.IOError(...)`): what is left is the part a person can read.
    public static func plainWords(_ text: String) -> String {
        var words = text
        for prefix in ["HTTPClientError.", "NIOCore.", "NIOPosix.", "NIOSSL.", "AsyncHTTPClient."] {
            words = words.replacingOccurrences(of: prefix, with: "")
        }
        return words
    }
}

extension Duration {
    /// Whole nanoseconds (saturating).
    public var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : product + attoseconds / 1_000_000_000
    }
}

/// Why a connection could not be made, read from SwiftNIO's typed errors (errno values and DNS
/// failures), not from their descriptions.
public enum ConnectFailure: Equatable, Sendable {
    case refused, noRoute, nameNotResolved

    public init?(_ error: any Error) {
        if let connection = error as? NIOConnectionError {
            let codes = connection.connectionErrors.compactMap { ($0.error as? IOError)?.errnoCode }
            if codes.contains(ECONNREFUSED) {
                self = .refused
            } else if codes.contains(where: { $0 == ENETUNREACH || $0 == EHOSTUNREACH }) {
                self = .noRoute
            } else if connection.connectionErrors.isEmpty, connection.dnsAError != nil || connection.dnsAAAAError != nil {
                self = .nameNotResolved
            } else {
                return nil
            }
        } else if let io = error as? IOError {
            switch io.errnoCode {
            case ECONNREFUSED: self = .refused
            case ENETUNREACH, EHOSTUNREACH: self = .noRoute
            default: return nil
            }
        } else {
            return nil
        }
    }
}
