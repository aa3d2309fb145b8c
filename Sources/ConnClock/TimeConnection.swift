import ConnCore
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// One kept-alive HTTP/1.1 connection to the back end's origin for the json clock method, on
/// SwiftNIO directly: t1 is read on the event loop just before the request is written and t4
/// as the answer's first bytes are read (`ArrivalStamp`), so the round trip that makes up the
/// bound holds no hand-off between Swift concurrency and the event loop. Through
/// AsyncHTTPClient the round trip was about twice the WebSocket's (issue 20).
final class TimeConnection: Sendable {
    /// One answer and the device's times around it.
    struct Exchange {
        /// Just before the request was written.
        var t1: Double
        /// When the answer's first bytes were read.
        var t4: Double
        var response: ChannelHTTPExchange.Response
    }

    private let connection: ChannelHTTPExchange.Connection
    private let stamp: ArrivalStamp
    private let clock: SampleClock
    /// The HTTP proxy that forwards each request in absolute form (a plain-http URL), and the
    /// URL: its own answers (407, "could not reach it") are errors, not the server's time.
    private let forwarding: (proxy: ProxyServer, url: URL, sniffer: ProxyForwarding.StatusSniffer?)?

    private init(connection: ChannelHTTPExchange.Connection, stamp: ArrivalStamp, clock: SampleClock, forwarding: (proxy: ProxyServer, url: URL, sniffer: ProxyForwarding.StatusSniffer?)?) {
        self.connection = connection
        self.stamp = stamp
        self.clock = clock
        self.forwarding = forwarding
    }

    /// Whether requests to `url` through `proxy` go in absolute form on a connection to the
    /// proxy (then their heads must say so: `ChannelHTTPExchange.requestHead(…, proxy:)`).
    static func forwards(_ url: URL, through proxy: ProxyServer?) -> ProxyServer? {
        proxy.flatMap { ProxyForwarding.forwards(url, through: $0) ? $0 : nil }
    }

    /// Connects to `url`'s origin (TLS for https, as every connection of conn's: `ClientTLS`,
    /// whose `serverName(for:)` sends no SNI for an IP literal).
    static func open(to url: URL, trust: ServerTrust, timeout: Duration, maxBytes: Int, clock: SampleClock, egress: Egress = .any,
                     proxy: ProxyServer? = nil) async throws -> TimeConnection {
        guard let origin = Origin(url) else {
            throw ConnError.configuration("\(url.absoluteString) is not an http or https URL with a host")
        }
        let sslContext = origin.scheme == "https" ? try NIOSSLContext(configuration: ClientTLS.configuration(trust)) : nil
        let serverName = ClientTLS.serverName(for: origin.host)
        let stamp = ArrivalStamp(clock: clock)
        let collector = ResponseCollector(maxBytes: maxBytes)
        let forwarded = forwards(url, through: proxy)
        let sniffer = forwarded.map { ProxyForwarding.guardAnswers(of: collector, url: url, proxy: $0) }
        @Sendable func addHandlers(_ channel: any Channel) throws {
            let pipeline = channel.pipeline.syncOperations
            if let sniffer { try pipeline.addHandler(sniffer) }
            if let sslContext {
                try pipeline.addHandler(NIOSSLClientHandler(context: sslContext, serverHostname: serverName))
            }
            try pipeline.addHandler(stamp)
            try pipeline.addHTTPClientHandlers()
            try pipeline.addHandler(collector)
        }
        do {
            let bootstrap = egress.boundToSource(ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton))
                .connectTimeout(.nanoseconds(timeout.nanoseconds))
                .channelOption(.socketOption(.tcp_nodelay), value: 1)
            let channel: any Channel
            if let forwarded {
                // A plain-http URL: a connection to the proxy, each request in absolute form.
                channel = try await ProxyForwarding.connect(to: forwarded, for: url, named: "the proxy \(forwarded.display)", bootstrap: bootstrap,
                                                            egress: egress, timeout: timeout)
                try await channel.eventLoop.submit { try addHandlers(channel) }.get()
            } else if let proxy {
                // Through the proxy's tunnel; TLS and HTTP inside it.
                channel = try await ProxiedConnection.open(through: proxy, to: origin.host, port: origin.port, url: url, bootstrap: bootstrap,
                                                           egress: egress, timeout: timeout)
                try await channel.eventLoop.submit { try addHandlers(channel) }.get()
            } else {
                let dialling = bootstrap.channelInitializer { channel in
                    egress.prepare(channel).flatMapThrowing { try addHandlers(channel) }
                }
                channel = try await egress.dial(dialling, host: origin.host, port: origin.port, timeout: timeout)
            }
            return TimeConnection(connection: .init(channel: channel, collector: collector), stamp: stamp, clock: clock,
                                  forwarding: forwarded.map { ($0, url, sniffer) })
        } catch is ProxiedConnection.TunnelTimeout {
            throw ConnError.temporary(.timeout, "the proxy \(proxy?.display ?? "") did not open the way to \(url.absoluteString) within \(TimeFormatting.duration(timeout))")
        } catch {
            throw HTTPTransport.describe(error, url: url, timeout: timeout)
        }
    }

    /// One request and its answer, with t1 and t4 read on the event loop. A connection the
    /// server closed (or that saw an unasked answer) fails with `ChannelHTTPExchange.Failure.closedEarly`.
    func exchange(_ head: HTTPRequestHead, timeout: Duration) async throws -> Exchange {
        let connection = self.connection
        let stamp = self.stamp
        let clock = self.clock
        let exchange: Exchange
        do {
            exchange = try await connection.channel.eventLoop.flatSubmit {
                stamp.arm()
                let t1 = clock.nowMS()
                return ChannelHTTPExchange.request(head, on: connection, timeout: timeout, from: .now).map { response in
                    // An answer always comes with bytes; the fallback is the latest honest reading.
                    Exchange(t1: t1, t4: stamp.arrivalMS ?? clock.nowMS(), response: response)
                }
            }.get()
        } catch {
            guard let forwarding, let unreadable = ProxyForwarding.unreadableAuthentication(
                error, sniffer: forwarding.sniffer, url: forwarding.url, proxy: forwarding.proxy, named: "the proxy \(forwarding.proxy.display)")
            else { throw error }
            throw unreadable
        }
        if let forwarding, let failure = ProxyForwarding.proxyFailure(
            status: exchange.response.status, headers: exchange.response.headers.map { ($0.name, $0.value) }, url: forwarding.url,
            proxy: forwarding.proxy, named: "the proxy \(forwarding.proxy.display)")
        {
            throw failure
        }
        return exchange
    }

    func close() async {
        try? await connection.channel.close()
    }
}
