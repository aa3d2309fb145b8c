import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket
@_spi(WSInternal) import WSCore

/// Opens a WebSocket (`ws` or `wss`) and hands its two directions to a handler: the one way the
/// link to the back end and the ws clock method connect.
///
/// Built on NIO's client upgrader rather than WSClient's `WebSocketClient`, because that one
/// always names the URL's host in TLS's server name indication, and NIOSSL refuses an IP address
/// there (`cannotUseIPAddressInSNI`), so `wss://192.0.2.7/ws` could never connect. Here a host
/// that is an IP literal gets no SNI (RFC 6066 §3 forbids one) and its certificate is checked
/// against that address; a name is sent as SNI and checked as before. The frames themselves are
/// handled by swift-websocket's own handler (its `WSInternal` SPI), so close handshakes, control
/// frames and message assembly stay the library's.
public enum WebSocketConnector {
    public typealias Handler = @Sendable (WebSocketInboundStream, WebSocketOutboundWriter) async throws -> Void

    public enum Failure: Error, CustomStringConvertible {
        case notWebSocketURL(String)
        case upgradeDeclined(String)
        case handshakeTimeout(String, Duration)

        public var description: String {
            switch self {
            case .notWebSocketURL(let url): "\(url) is not a ws:// or wss:// URL with a host"
            case .upgradeDeclined(let url): "\(url) did not accept the WebSocket upgrade"
            case .handshakeTimeout(let url, let limit): "\(url) did not complete the WebSocket upgrade within \(TimeFormatting.duration(limit))"
            }
        }
    }

    /// Connects to `url` with `headers` added to the upgrade request (e.g. Authorization) and runs
    /// `handler` until it returns or the connection closes. Connecting, TLS and the upgrade
    /// together take at most `timeout`: a server that trickles its answer to the upgrade a byte at
    /// a time has the connection closed at the deadline (`Failure.handshakeTimeout`).
    public static func connect(
        to url: URL, headers: [(String, String)] = [], tls: TLSConfiguration, maxFrameSize: Int = 1 << 14,
        timeout: Duration = .seconds(10), proxy: ProxyServer? = nil, egress: Egress = .any, logger: Logger, handler: @escaping Handler
    ) async throws {
        guard let origin = Origin(url), let request = UpgradeRequest(url: url, origin: origin, headers: headers) else {
            throw Failure.notWebSocketURL(url.absoluteString)
        }
        let sslContext = origin.scheme == "https" ? try NIOSSLContext(configuration: tls) : nil
        let serverName = ClientTLS.serverName(for: origin.host)

        let started = NIODeadline.now()
        let expired = NIOLockedValueBox(false)
        /// TLS (for wss) and the upgrade, on a channel connected to the server or tunnelled to it.
        @Sendable func upgrading(_ channel: any Channel) throws -> EventLoopFuture<Upgrade> {
            if let sslContext {
                let tlsHandler = try NIOSSLClientHandler(context: sslContext, serverHostname: serverName)
                // Last: through an https:// proxy the proxy's own TLS is already there, nearer the wire.
                try channel.pipeline.syncOperations.addHandler(tlsHandler, position: .last)
            }
            let upgraded = try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
                configuration: request.pipelineConfiguration(maxFrameSize: maxFrameSize))
            // What is left of the deadline after connecting: closing the channel fails
            // the upgrade, which nothing else would end.
            let deadline = channel.eventLoop.scheduleTask(deadline: started + .nanoseconds(timeout.nanoseconds)) {
                expired.withLockedValue { $0 = true }
                channel.close(promise: nil)
            }
            upgraded.whenComplete { _ in deadline.cancel() }
            return upgraded
        }
        let bootstrap = egress.boundToSource(ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)).connectTimeout(.nanoseconds(timeout.nanoseconds))
        let upgrade: EventLoopFuture<Upgrade>
        if let proxy {
            // Through a proxy: a CONNECT (or SOCKS5's) to the server first, then TLS and the
            // upgrade inside the tunnel (the token travels there, never to the proxy).
            let remaining = Duration.nanoseconds(max(0, (started + .nanoseconds(timeout.nanoseconds) - .now()).nanoseconds))
            let channel: any Channel
            do {
                channel = try await ProxiedConnection.open(through: proxy, to: origin.host, port: origin.port, url: url, bootstrap: bootstrap,
                                                           egress: egress, timeout: remaining)
            } catch is ProxiedConnection.TunnelTimeout {
                throw Failure.handshakeTimeout(url.absoluteString, timeout)
            }
            upgrade = try await channel.eventLoop.submit { try upgrading(channel) }.get()
        } else {
            // With -4/-6 the name is resolved here, to an address of that family.
            if egress.family == nil {
                upgrade = try await bootstrap.connect(host: origin.host, port: origin.port) { channel in
                    egress.prepare(channel).flatMapThrowing { try upgrading(channel) }
                }
            } else {
                let address = try await egress.firstAddress(of: origin.host, port: origin.port, timeout: timeout)
                upgrade = try await bootstrap.connect(to: address) { channel in
                    egress.prepare(channel).flatMapThrowing { try upgrading(channel) }
                }
            }
        }
        let outcome: Upgrade
        do {
            outcome = try await upgrade.get()
        } catch where expired.withLockedValue({ $0 }) {
            throw Failure.handshakeTimeout(url.absoluteString, timeout)
        }
        switch outcome {
        case .webSocket(let channel):
            let configuration = WebSocketHandler.Configuration(extensions: [], autoPing: .disabled, validateUTF8: false,
                                                               maxFrameSize: maxFrameSize)
            _ = try await WebSocketHandler.handle(type: .client, configuration: configuration, asyncChannel: channel,
                                                  context: Context(logger: logger)) { inbound, outbound, _ in
                try await handler(inbound, outbound)
            }
        case .declined(let channel):
            try? await channel.close()
            throw Failure.upgradeDeclined(url.absoluteString)
        }
    }

    struct Context: WebSocketContext {
        let logger: Logger
    }

    enum Upgrade: Sendable {
        case webSocket(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>)
        case declined(any Channel)
    }

    /// The HTTP/1.1 GET that asks for the upgrade: path and query of the URL, its Host header
    /// (the port only when the URL names one).
    struct UpgradeRequest {
        let head: HTTPRequestHead

        init?(url: URL, origin: Origin, headers: [(String, String)]) {
            guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
                let scheme = components.scheme?.lowercased(), scheme == "ws" || scheme == "wss"
            else { return nil }
            var requestHeaders = HTTPHeaders(headers)
            requestHeaders.replaceOrAdd(name: "Host", value: components.port.map { "\(origin.urlHost):\($0)" } ?? origin.urlHost)
            let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
            let target = components.percentEncodedQuery.map { "\(path)?\($0)" } ?? path
            head = HTTPRequestHead(version: .http1_1, method: .GET, uri: target, headers: requestHeaders)
        }

        func pipelineConfiguration(maxFrameSize: Int) -> NIOUpgradableHTTPClientPipelineConfiguration<Upgrade> {
            let upgrader = NIOTypedWebSocketClientUpgrader<Upgrade>(maxFrameSize: maxFrameSize) { channel, _ in
                channel.eventLoop.makeCompletedFuture {
                    .webSocket(try NIOAsyncChannel<WebSocketFrame, WebSocketFrame>(wrappingChannelSynchronously: channel))
                }
            }
            let upgradeConfiguration = NIOTypedHTTPClientUpgradeConfiguration<Upgrade>(
                upgradeRequestHead: head, upgraders: [upgrader],
                notUpgradingCompletionHandler: { channel in channel.eventLoop.makeSucceededFuture(.declined(channel)) })
            var configuration = NIOUpgradableHTTPClientPipelineConfiguration(upgradeConfiguration: upgradeConfiguration)
            // Bytes that follow the 101 in the same read are the first frames: hand them on.
            configuration.leftOverBytesStrategy = .forwardBytes
            return configuration
        }
    }
}
