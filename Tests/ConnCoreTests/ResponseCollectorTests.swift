import ConnCore
import ConnTestSupport
import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import Testing

/// A connection that failed before its first request (the TLS handshake refused the server's
/// certificate while the caller was still getting ready, as happens on a loaded machine) must
/// fail that request with the reason, not with "closed the connection before answering".
@Suite("a channel's request after the connection failed")
struct ResponseCollectorTests {
    @Test("a TLS handshake refused before the request: the request fails as a TLS error that names --insecure")
    func handshakeFailedFirst() async throws {
        try await BadServer.with([.answer("GET", "/time", status: 200, body: "{}")], tls: true) { server in
            let collector = ResponseCollector(maxBytes: 1024)
            let context = try NIOSSLContext(configuration: ClientTLS.configuration(insecure: false))
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: context, serverHostname: "localhost"))
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        try channel.pipeline.syncOperations.addHandler(collector)
                    }
                }
                .connect(host: "127.0.0.1", port: server.url.port!).get()
            // The handshake fails on its own (the self-signed certificate) and closes the channel.
            try await channel.closeFuture.get()
            let url = URL(string: "https://localhost:\(server.url.port!)/time")!
            let connection = ChannelHTTPExchange.Connection(channel: channel, collector: collector)
            let head = ChannelHTTPExchange.requestHead(for: url, headers: [])
            await #expect {
                _ = try await channel.eventLoop.flatSubmit {
                    ChannelHTTPExchange.request(head, on: connection, timeout: .seconds(5), from: .now)
                }.get()
            } throws: { error in
                let described = HTTPTransport.describe(error, url: url, timeout: .seconds(5))
                return described.hint?.contains("--insecure") == true
            }
        }
    }
}
