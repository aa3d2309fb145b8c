import ConnCore
import ConnTestSupport
import Foundation
import NIOPosix
import Testing

/// The relay that makes SOCKS5 (with credentials) and TLS to a proxy for conn's HTTP client,
/// against a real microsocks: it answers a CONNECT that carries its secret with a tunnel, and
/// closes on one that does not — another local user gets nothing, least of all the proxy's
/// credentials.
@Suite("proxy relay", .enabled(if: RealProxy.hasMicrosocks, "microsocks is not installed (scripts/install-deps)"))
struct ProxyRelayTests {
    /// Sends `head` to 127.0.0.1:`port` and returns what comes back before the connection closes
    /// or 60 s pass (on a thread of its own: the calls block). The relay runs in this process, on
    /// the executor threads the whole parallel run shares: its bounds are loose.
    func exchange(_ head: String, port: Int) async -> String {
        await onOwnThread {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { return "" }
            defer { close(descriptor) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else { return "" }
            var wait = timeval(tv_sec: 60, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
            let bytes = Array(head.utf8)
            _ = send(descriptor, bytes, bytes.count, 0)
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(descriptor, &buffer, buffer.count, 0)
            return count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : ""
        }
    }

    @Test("a CONNECT with the relay's secret gets 200 and a tunnel made with the proxy's credentials; without it, or with another, the connection is closed and the proxy never asked",
          .timeLimit(.minutes(5)))
    func onlyTheClientGetsATunnel() async throws {
        let proxy = try await RealProxy.microsocks(user: "bob", password: "pw-of-bob")
        let server = try await BackgroundServer.start()
        let relay = try await ProxyRelay.start(to: try ProxyServer.parse("socks5h://bob:pw-of-bob@127.0.0.1:\(proxy.port)", from: "test"),
                                               through: "the proxy", timeout: .seconds(60), group: MultiThreadedEventLoopGroup.singleton)
        let target = "127.0.0.1:\(server.port)"
        let secret = Data("\(relay.clientUser):\(relay.clientPassword)".utf8).base64EncodedString()
        let opened = await exchange("CONNECT \(target) HTTP/1.1\r\nHost: \(target)\r\nProxy-Authorization: Basic \(secret)\r\n\r\n", port: relay.port)
        #expect(opened.hasPrefix("HTTP/1.1 200"), "\(opened)")
        let anonymous = await exchange("CONNECT \(target) HTTP/1.1\r\nHost: \(target)\r\n\r\n", port: relay.port)
        #expect(anonymous.isEmpty, "\(anonymous)")
        let guessed = Data("\(relay.clientUser):guess".utf8).base64EncodedString()
        let wrong = await exchange("CONNECT \(target) HTTP/1.1\r\nHost: \(target)\r\nProxy-Authorization: Basic \(guessed)\r\n\r\n", port: relay.port)
        #expect(wrong.isEmpty, "\(wrong)")
        #expect(relay.takeFailure() == nil, "a stranger's connection is not the client's failure")
        await relay.close()
        await server.stop()
        await proxy.stop()
    }
}
