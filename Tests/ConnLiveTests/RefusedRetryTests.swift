@testable import ConnLive
import ConnCore
import ConnTestSupport
import Foundation
import Logging
import Testing

/// How soon the link knocks again while the server's port refuses: often at first (a restart is
/// noticed within a small share of the outage), less as the outage lengthens, never more than
/// the usual backoff; any other ending goes back to that backoff.
@Suite("refused retry")
struct RefusedRetryTests {
    @Test("the wait is the floor at first, 0.5 % of the streak after 10 s, and never above what the link's backoff allows")
    func schedule() {
        var retry = RefusedRetry()
        let start = ContinuousClock.now
        #expect(retry.ceiling(afterRefusal: true, now: start) == RefusedRetry.floor)
        #expect(retry.ceiling(afterRefusal: true, now: start + .seconds(5)) == RefusedRetry.floor)
        #expect(retry.ceiling(afterRefusal: true, now: start + .seconds(40)) == .milliseconds(200))
        #expect(retry.ceiling(afterRefusal: true, now: start + .seconds(400)) == .seconds(2), "the link caps this at its own 1 s")
    }

    @Test("an attempt that was not refused ends the streak: the usual backoff, and a new streak starts from the floor")
    func otherEndingsReset() {
        var retry = RefusedRetry()
        let start = ContinuousClock.now
        _ = retry.ceiling(afterRefusal: true, now: start)
        #expect(retry.ceiling(afterRefusal: true, now: start + .seconds(60)) == .milliseconds(300))
        #expect(retry.ceiling(afterRefusal: false, now: start + .seconds(61)) == nil)
        #expect(retry.ceiling(afterRefusal: true, now: start + .seconds(62)) == RefusedRetry.floor)
    }

    @Test("the link tells a refused port (nothing listens) from a server that answers and declines, and from a proxy that refuses")
    func attemptsAreClassified() async throws {
        let closed = try HTTPPorts.closed()
        let logger = Logger(label: "test")
        let refused = await BackEndLink(url: URL(string: "ws://127.0.0.1:\(closed)/ws")!, credentials: nil, pingInterval: .seconds(10),
                                        handshakeTimeout: .seconds(10), logger: logger).holdOpen { _ in }
        #expect(refused.refused)
        #expect(refused.offset == nil)

        try await BadServer.with([.answer("GET", "/ws", status: 404, body: "{}")]) { server in
            let url = URL(string: "ws://127.0.0.1:\(server.url.port!)/ws")!
            let declined = await BackEndLink(url: url, credentials: nil, pingInterval: .seconds(10), handshakeTimeout: .seconds(10),
                                             logger: logger).holdOpen { _ in }
            #expect(!declined.refused, "the server answered: the usual backoff")
            #expect(try server.requests().contains { $0.path == "/ws" }, "the attempt reached the server")

            // Through a proxy whose port refuses: the refusal is the proxy's, not news of the server.
            var proxied = BackEndLink(url: url, credentials: nil, pingInterval: .seconds(10), handshakeTimeout: .seconds(10), logger: logger)
            proxied.proxy = try ProxyServer.parse("http://127.0.0.1:\(closed)", from: "the test")
            #expect(!(await proxied.holdOpen { _ in }).refused)
        }
    }
}
