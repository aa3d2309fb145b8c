import ConnCore
import ConnTestSupport
import Foundation
import Logging
import NIOSSL
import Synchronization
import Testing

/// wss to an IP literal: no SNI (NIOSSL refuses an IP there, which made every `wss://ADDRESS`
/// fail), and the certificate still checked, against the address. The hostile server's
/// certificate names `localhost` and `127.0.0.1` only, and is trusted here alone.
@Suite("WebSocketConnector: wss to names and IP literals, verified")
struct WebSocketConnectorTests {
    static let routes: [BadServer.Route] = [
        // Held 30 s: the client's close ends it at once, and a machine busy with other suites once
        // took over 3 s between the upgrade and the ping (the server had hung up: "I/O on closed channel").
        BadServer.Route(path: "/ws", websocket: .init(onPing: [#"{"type":"pong","t1":{t1},"t2":{now},"t3":{now}}"#], holdMs: 30_000)),
    ]

    /// One ping and its pong over wss to `host`, trusting only the server's own certificate.
    static func exchange(host: String, server: BadServer) async throws -> String? {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .file(try #require(server.certificatePath))
        let port = try #require(server.url.port)
        let url = try #require(URL(string: "wss://\(host):\(port)/ws"))
        let answer = Mutex<String?>(nil)
        do {
            try await WebSocketConnector.connect(to: url, tls: tls, timeout: .seconds(30), logger: Logger(label: "test")) { inbound, outbound in
                try await outbound.write(.text(#"{"type":"ping","t1":1700000000000}"#))
                for try await message in inbound.messages(maxSize: 1 << 16) {
                    if case .text(let text) = message {
                        answer.withLock { $0 = text }
                        break
                    }
                }
                try await outbound.close(.normalClosure, reason: nil)
            }
        } catch NIOSSLError.uncleanShutdown where answer.withLock({ $0 }) != nil {
            // The hostile server ends its hold by dropping TLS without close_notify.
        }
        return answer.withLock { $0 }
    }

    @Test("an IP literal whose address the certificate names connects, as does the name")
    func ipLiteralAndName() async throws {
        try await BadServer.with(Self.routes, tls: true) { server in
            let byAddress = try await Self.exchange(host: "127.0.0.1", server: server)
            #expect(byAddress?.contains(#""t1":1700000000000"#) == true, "\(byAddress ?? "no answer")")
            let byName = try await Self.exchange(host: "localhost", server: server)
            #expect(byName?.contains(#""type":"pong""#) == true, "\(byName ?? "no answer")")
            #expect(server.webSocketTexts().count == 2)
            // What the server's TLS layer saw: no SNI for the address, the name for the name.
            #expect(server.tlsServerNames() == [nil, "localhost"])
        }
    }

    @Test("an IP literal the certificate does not name is refused, not let through for lack of SNI")
    func otherAddressRefused() async throws {
        try await BadServer.with(Self.routes, host: "127.0.0.2", tls: true) { server in
            let error = await #expect(throws: (any Error).self) {
                _ = try await Self.exchange(host: "127.0.0.2", server: server)
            }
            // Refused for the name check, the point of this test, not for any other reason.
            #expect(error.map { "\($0)" }?.hasPrefix("NIOSSLExtraError.failedToValidateHostname") == true, "\(String(describing: error))")
            #expect(server.webSocketTexts().isEmpty, "a frame crossed a connection whose certificate does not name 127.0.0.2")
        }
    }

    @Test("a server that does not upgrade is an error naming the URL")
    func declined() async throws {
        try await BadServer.with([.answer("GET", "/ws", status: 200, body: "{}")]) { server in
            let port = try #require(server.url.port)
            let url = try #require(URL(string: "ws://127.0.0.1:\(port)/ws"))
            do {
                try await WebSocketConnector.connect(to: url, tls: .makeClientConfiguration(), logger: Logger(label: "test")) { _, _ in }
                Issue.record("connected to a server that answered 200")
            } catch let failure as WebSocketConnector.Failure {
                #expect(failure.description.contains(url.absoluteString))
            }
        }
    }
}
