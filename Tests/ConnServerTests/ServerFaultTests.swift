import AsyncHTTPClient
import ConnProtocol
import ConnTestSupport
import Foundation
import Logging
import Synchronization
import Testing
import WSClient

@Suite("conn-server fault injection, authentication and WebSocket")
struct ServerFaultTests {
    @Test("skew shifts /time and the Date header", arguments: [Int64(86_400_000), -999_000])
    func skewIsVisible(_ skew: Int64) async throws {
        try await ServerProcess.with(["--skew-ms", String(skew)]) { url in
            // The server's time lies between the times taken before and after the request,
            // shifted by the skew, however long a loaded machine takes to answer.
            let before = Date().timeIntervalSince1970 * 1000 + Double(skew)
            let answer = try await ServerClient(base: url).request(.GET, "/time")
            let after = Date().timeIntervalSince1970 * 1000 + Double(skew)
            let sample = try answer.decode(TimeSample.self)
            #expect(sample.t2 >= before - 50 && sample.t2 <= after + 50, "\(sample.t2) not in \(before)...\(after)")
            let dateHeader = try #require(answer.headers.first(name: "Date"))
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            formatter.timeZone = TimeZone(identifier: "GMT")
            let date = try #require(formatter.date(from: dateHeader))
            // The Date header has one-second resolution (truncated).
            let dateMS: Double = date.timeIntervalSince1970 * 1000
            #expect(dateMS >= before - 1_050 && dateMS <= after + 50, "\(dateMS) not in \(before)...\(after)")
        }
    }

    @Test func portalAnswersEverythingWithALoginPage() async throws {
        try await ServerProcess.with(["--portal"]) { url in
            let client = ServerClient(base: url)
            for path in ["/health", "/inbox", "/time", "/anything"] {
                let answer = try await client.request(.GET, path)
                #expect(answer.status == 200)
                #expect(answer.headers.first(name: "Content-Type")?.hasPrefix("text/html") == true)
                #expect(answer.text.contains("<form"))
            }
        }
    }

    @Test func failRateAnswers5xxWithRetryAfterAndStoresNothing() async throws {
        try await ServerProcess.with(["--fail-rate", "1"]) { url in
            let client = ServerClient(base: url)
            var statuses: Set<Int> = []
            for _ in 0..<30 {
                let answer = try await client.post(MessageSubmission(to: "a@example.com", subject: "s", text: "t"))
                statuses.insert(answer.status)
                if answer.status == 503 { #expect(answer.headers.first(name: "Retry-After") == "1") }
            }
            #expect(statuses == [500, 503])
        }
    }

    @Test("a dropped response was still processed: the retry with the same key is a replay")
    func dropResponseProcessesThenCloses() async throws {
        let home = try TemporaryDirectory()
        let database = home.path + "/server.sqlite"
        let key = UUID().uuidString
        let message = MessageSubmission(to: "a@example.com", subject: "dropped", text: "t")
        _ = try await ServerProcess.with(["--data", database, "--drop-response-rate", "1"]) { url in
            let error = await #expect(throws: (any Error).self) { try await ServerClient(base: url).post(message, key: key) }
            // The server closed without answering (what was asked for), not any other failure.
            #expect(error.map { "\($0)" } == "HTTPClientError.remoteConnectionClosed", "\(String(describing: error))")
        }
        try await ServerProcess.with(["--data", database]) { url in
            let client = ServerClient(base: url)
            let retry = try await client.post(message, key: key)
            #expect(retry.status == 201)
            #expect(retry.headers.first(name: "Idempotent-Replayed") == "true")
            #expect(try await client.inbox().map(\.subject) == ["dropped"])
        }
    }

    @Test func latencyDelaysEveryAnswer() async throws {
        try await ServerProcess.with(["--latency-ms", "300"]) { url in
            let clock = ContinuousClock()
            let start = clock.now
            _ = try await ServerClient(base: url).request(.GET, "/health")
            #expect(start.duration(to: clock.now) >= .milliseconds(300))
        }
    }

    @Test func tokenIsRequiredEverywhereButHealth() async throws {
        try await ServerProcess.with(["--token", "s3cret"]) { url in
            let client = ServerClient(base: url)
            #expect(try await client.request(.GET, "/health").status == 204)
            let missing = try await client.request(.GET, "/inbox")
            #expect(missing.status == 401)
            #expect(missing.errorCode == "unauthorized")
            #expect(missing.headers.first(name: "WWW-Authenticate") == "Bearer")
            #expect(try await client.request(.GET, "/inbox", headers: [("Authorization", "Bearer wrong")]).status == 401)
            #expect(try await client.request(.GET, "/inbox", headers: [("Authorization", "Bearer s3cret")]).status == 200)
            let post = try await client.post(MessageSubmission(to: "a@example.com", subject: "s", text: "t"))
            #expect(post.status == 401)
        }
    }

    @Test("WebSocket: hello with the server time, ping/pong with timestamps, new mail pushed")
    func webSocketProtocol() async throws {
        try await ServerProcess.with(["--skew-ms", "5000"]) { url in
            let wsURL = url.absoluteString.replacingOccurrences(of: "http://", with: "ws://") + "/ws"
            let client = ServerClient(base: url)
            // Each event with the local time it arrived, and when what caused it was sent: the
            // server's time must fall between the two (plus the skew). Arrival alone is not
            // enough on a loaded machine, where reading the hello has lagged its stamp by 3 s.
            let received = Mutex<[(event: WebSocketEvent, at: Int64)]>([])
            let now: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) }
            let connecting = now()
            let pinging = Mutex<Int64>(0)
            _ = try await WebSocketClient.connect(url: wsURL, logger: Logger(label: "ws-test")) { inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                func next() async throws {
                    guard case .text(let text) = try await messages.next() else { return }
                    let event = try JSONDecoder().decode(WebSocketEvent.self, from: Data(text.utf8))
                    let at = Int64(Date().timeIntervalSince1970 * 1000)
                    received.withLock { $0.append((event, at)) }
                }
                try await next()  // hello
                pinging.withLock { $0 = now() }
                try await outbound.write(.text(#"{"type":"ping","t1":1234}"#))
                try await next()  // pong
                // Post a message now that this connection is surely subscribed.
                _ = try await client.post(MessageSubmission(to: "a@example.com", subject: "pushed", text: "t"))
                try await next()  // newMail
                try await outbound.close(.normalClosure, reason: nil)
            }
            let arrivals = received.withLock { $0 }
            let events = arrivals.map(\.event)
            #expect(events.count == 3)
            guard events.count == 3 else { return }
            // 5 s of skew stays distinguishable from none: each server time lies between sending
            // and arrival, shifted by 5 s (10 ms of slack for whole-millisecond stamps).
            func within(_ serverTime: Int64, sent: Int64, arrived: Int64) -> Bool {
                serverTime >= sent + 5000 - 10 && serverTime <= arrived + 5000 + 10
            }
            if case .hello(let serverTime) = events[0] {
                #expect(within(serverTime, sent: connecting, arrived: arrivals[0].at), "\(serverTime - connecting) ms after connecting, arrived \(arrivals[0].at - connecting)")
            } else { Issue.record("no hello: \(events[0])") }
            if case .pong(let t1, let t2, let t3) = events[1] {
                #expect(t1 == 1234)
                #expect(t2 <= t3 && within(Int64(t2), sent: pinging.withLock { $0 }, arrived: arrivals[1].at))
            } else { Issue.record("no pong: \(events[1])") }
            if case .newMail(let email) = events[2] { #expect(email.subject == "pushed") } else { Issue.record("no newMail: \(events[2])") }
        }
    }

    @Test func webSocketNeedsTheTokenToo() async throws {
        try await ServerProcess.with(["--token", "s3cret"]) { url in
            let wsURL = url.absoluteString.replacingOccurrences(of: "http://", with: "ws://") + "/ws"
            let error = await #expect(throws: (any Error).self) {
                _ = try await WebSocketClient.connect(url: wsURL, logger: Logger(label: "ws-test")) { _, _, _ in }
            }
            // Refused at the upgrade (the server's 401), not failing to connect.
            #expect(error.map { "\($0)" } == "WebSocket upgrade failed", "\(String(describing: error))")
        }
    }
}
