import ConnCore
@testable import ConnMetrics
import ConnTestSupport
import Foundation
import Synchronization
import Testing

/// The metrics listener lets go: a client that says nothing, trickles half a request, never
/// finishes its TLS handshake or idles after an answer is closed in time, and a flood of such
/// connections cannot keep a scrape out. A real listener on loopback, real sockets. It answers
/// from Swift tasks in this test process, whose cooperative pool the whole parallel suite shares
/// (two threads on a 2-core machine): an answer is awaited up to 30 s, a close 10 s (closes come
/// from the event loop, which nothing else holds).
@Suite("the metrics listener's deadlines and connection limit")
struct MetricsListenerLimitsTests {
    /// What the listener told `onLimit`.
    final class Reports: Sendable {
        let heard = Mutex<[Int]>([])
        /// Requests for /slow being answered.
        let slow = Mutex(0)
    }

    static let limits = ListenerLimits(firstRequest: .milliseconds(500), idle: .seconds(1), connections: 20)

    /// A listener answering "ok" (and "/slow" after two seconds), held to `limits`.
    func listener(tls: WebConfig? = nil, limits: ListenerLimits = Self.limits,
                  reports: Reports? = nil) async throws -> MetricsServer {
        try await MetricsServer.start(at: try ListenAddress.parse("0"), tls: tls?.tls, limits: limits,
                                      onLimit: { closed in reports?.heard.withLock { $0.append(closed) } }) { request in
            if request.path == "/slow" {
                reports?.slow.withLock { $0 += 1 }
                try? await Task.sleep(for: .seconds(2))
            }
            return .init(status: .ok, body: "ok\n")
        }
    }

    @Test("a connection that sends nothing, or half a request a byte every 100 ms, is closed at the first request's deadline")
    func silentAndTrickledAreClosed() async throws {
        let server = try await listener()
        let silent = try RawConnection(port: server.address.port)
        let trickled = try RawConnection(port: server.address.port)
        // 40 bytes at 100 ms: 4 s to finish the head, the deadline is 0.5 s.
        let feeding = Task {
            for byte in "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n" {
                guard trickled.send(String(byte)) else { return true }
                try? await Task.sleep(for: .milliseconds(100))
            }
            return false
        }
        let quiet = await silent.awaitClose(within: 10)
        #expect(quiet.closed && quiet.received.isEmpty, "\(quiet)")
        let slow = await trickled.awaitClose(within: 10)
        #expect(slow.closed, "the trickled head held the connection: \(slow)")
        #expect(await feeding.value, "closed only once the head was whole")
        await server.stop()
    }

    @Test("over TLS, a connection that never begins its handshake is closed at the deadline")
    func handshakeNeverBegun() async throws {
        let home = try TemporaryDirectory()
        let certificates = try await TestCertificates(in: home)
        let file = try home.write("web.yml", "tls_server_config:\n  cert_file: \(certificates.good)\n  key_file: \(certificates.key)\n")
        let server = try await listener(tls: try WebConfig.load(file))
        let connection = try RawConnection(port: server.address.port)
        let outcome = await connection.awaitClose(within: 10)
        #expect(outcome.closed, "\(outcome)")
        await server.stop()
    }

    @Test("keep-alive: a second request in time is answered on the same connection; idle past the limit, it is closed")
    func idleAfterAnAnswer() async throws {
        // The first request far from its deadline, the next one 10 s from its: the idle clock
        // starts when the answer is written, and on a loaded machine the test's thread took
        // more than 0.5 s, and once more than 3 s, to read it and send the next request.
        let server = try await listener(limits: ListenerLimits(firstRequest: .seconds(30), idle: .seconds(10), connections: 20))
        let connection = try RawConnection(port: server.address.port)
        for _ in 0..<2 {
            connection.send("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let answer = await connection.read(until: "ok\n", within: 30)
            #expect(answer.hasPrefix("HTTP/1.1 200") && answer.contains("keep-alive"), "\(answer)")
        }
        let idle = await connection.awaitClose(within: 30)
        #expect(idle.closed && idle.received.isEmpty, "\(idle)")
        await server.stop()
    }

    @Test("at the connection limit, a newcomer takes the place of the one waiting longest: 40 half-sent connections, then a scrape is answered; the limit is reported")
    func floodDoesNotKeepAScrapeOut() async throws {
        let reports = Reports()
        // Deadlines far away: only the limit closes anything here.
        let server = try await listener(limits: ListenerLimits(firstRequest: .seconds(300), idle: .seconds(300), connections: 20), reports: reports)
        var flood: [RawConnection] = []
        for _ in 0..<40 {
            let connection = try RawConnection(port: server.address.port)
            connection.send("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            flood.append(connection)
        }
        let scrape = try RawConnection(port: server.address.port)
        scrape.send("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        // Within 30 s: the whole suite runs beside this in-process listener (a 10 s wait once
        // passed with nothing received under it).
        let answer = await scrape.awaitClose(within: 30)
        #expect(answer.received.hasPrefix("HTTP/1.1 200") && answer.received.hasSuffix("ok\n"), "\(answer)")
        // 41 came to a listener that keeps 20; the scrape closed itself once answered. Child
        // channels register on either of two event loops, so the scrape may take its place
        // before the last of the flood does (then it evicts none, and its slot goes to that
        // one): at least 20 of the flood were closed, 21 when the scrape came last.
        let closed = await poll(for: 10, every: .milliseconds(50)) { () -> Int? in
            let count = flood.filter(\.closedByPeer).count
            return count >= 20 ? count : nil
        }
        #expect(closed != nil, "\(flood.filter(\.closedByPeer).count) of the flood were closed")
        #expect(reports.heard.withLock { $0 } == [1], "reported at once, then not again within the minute: \(reports.heard.withLock { $0 })")
        await server.stop()
    }

    @Test("at the limit with every connection answering, the newcomer is the one closed; the answers go on")
    func busyConnectionsAreKept() async throws {
        let reports = Reports()
        let server = try await listener(limits: ListenerLimits(firstRequest: .seconds(300), idle: .seconds(300), connections: 2), reports: reports)
        let busy = try (0..<2).map { _ in try RawConnection(port: server.address.port) }
        for connection in busy { connection.send("GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n") }
        // Both requests in hand (each answers 2 s after it began). Within 30 s, as the waits
        // below: under the whole suite, this in-process listener once took over 10 s to read both.
        #expect(await poll(for: 30, every: .milliseconds(20)) { reports.slow.withLock { $0 } == 2 ? true : nil } == true)
        let newcomer = try RawConnection(port: server.address.port)
        let refused = await newcomer.awaitClose(within: 30)
        #expect(refused.closed && refused.received.isEmpty, "\(refused)")
        for connection in busy {
            let answer = await connection.awaitClose(within: 30)
            #expect(answer.received.hasPrefix("HTTP/1.1 200") && answer.received.hasSuffix("ok\n"), "\(answer)")
        }
        await server.stop()
    }
}
