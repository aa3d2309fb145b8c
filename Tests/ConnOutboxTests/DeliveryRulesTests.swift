import ConnCore
@testable import ConnOutbox
import Foundation
import Testing

/// The pure rules of delivery: backoff with full jitter, Retry-After, classifying answers.
@Suite("delivery rules")
struct DeliveryRulesTests {
    @Test("the backoff ceiling doubles from 1 s and stops at the cap")
    func ceilings() {
        let backoff = Backoff.standard
        #expect(backoff.ceiling(afterAttempt: 1) == .seconds(1))
        #expect(backoff.ceiling(afterAttempt: 2) == .seconds(2))
        #expect(backoff.ceiling(afterAttempt: 5) == .seconds(16))
        #expect(backoff.ceiling(afterAttempt: 9) == .seconds(256))
        #expect(backoff.ceiling(afterAttempt: 10) == .seconds(300))
        #expect(backoff.ceiling(afterAttempt: 1_000) == .seconds(300))
    }

    @Test("full jitter: every delay lies in [0, ceiling] and they spread over the range", arguments: [1, 3, 8])
    func jitter(attempt: Int) {
        let backoff = Backoff.standard
        var generator = SystemRandomNumberGenerator()
        let ceiling = backoff.ceiling(afterAttempt: attempt)
        let delays = (0..<2_000).map { _ in backoff.delay(afterAttempt: attempt, using: &generator) }
        #expect(delays.allSatisfy { $0 >= .zero && $0 <= ceiling })
        // Full jitter, not "ceiling plus a little": both halves of the range are used.
        #expect(delays.contains { $0 < ceiling / 4 } && delays.contains { $0 > ceiling * 3 / 4 })
    }

    @Test("Retry-After as seconds or as an HTTP date; garbage is ignored")
    func retryAfter() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(Backoff.retryAfter("7", now: now) == .seconds(7))
        #expect(Backoff.retryAfter(" 0 ", now: now) == .zero)
        // 1_700_000_000 is Tue, 14 Nov 2023 22:13:20 GMT.
        #expect(Backoff.retryAfter("Tue, 14 Nov 2023 22:13:50 GMT", now: now) == .seconds(30))
        #expect(Backoff.retryAfter("Tue, 14 Nov 2023 22:00:00 GMT", now: now) == .zero)
        #expect(Backoff.retryAfter("soon", now: now) == nil)
        #expect(Backoff.retryAfter("-5", now: now) == nil)
        #expect(Backoff.retryAfter(nil, now: now) == nil)
    }

    static func response(_ status: Int, _ body: String = "", headers: [(String, String)] = []) -> HTTPExchangeResponse {
        HTTPExchangeResponse(status: status, headers: headers, body: Data(body.utf8), elapsed: .zero)
    }

    @Test("answers are classified: 2xx sent; 401/403 auth; 408/409/425/429/5xx retry; other 4xx rejected")
    func classification() {
        let now = Date()
        let accepted = #"{"uid":"m7","dateTime":"2026-11-22T10:00:00Z","message":{"uid":"m7","from":"a@b.cc","to":"c@d.ee","subject":"s","text":"t","responseToUid":"","dateTime":"2026-11-22T10:00:00Z"}}"#
        #expect(DeliveryOutcome.classify(Self.response(201, accepted), now: now) == .sent(uid: "m7", dateTime: "2026-11-22T10:00:00Z", replayed: false, status: 201))
        #expect(DeliveryOutcome.classify(Self.response(200, accepted, headers: [("Idempotent-Replayed", "true")]), now: now)
            == .sent(uid: "m7", dateTime: "2026-11-22T10:00:00Z", replayed: true, status: 200))
        for status in [401, 403] {
            #expect(DeliveryOutcome.classify(Self.response(status), now: now).label == "auth")
        }
        for status in [408, 409, 425, 429, 500, 502, 503, 504] {
            #expect(DeliveryOutcome.classify(Self.response(status), now: now).label == "retry", "\(status)")
        }
        for status in [400, 404, 405, 413, 422] {
            #expect(DeliveryOutcome.classify(Self.response(status), now: now).label == "rejected", "\(status)")
        }
        let limited = DeliveryOutcome.classify(Self.response(429, #"{"error":{"code":"slowDown","message":"too many"}}"#, headers: [("Retry-After", "12")]), now: now)
        #expect(limited == .retry(code: "slowDown", message: "429: too many", status: 429, retryAfter: .seconds(12)))
        #expect(DeliveryOutcome.classify(ConnError.unavailable("refused", "nothing listens")) == .retry(code: "refused", message: "nothing listens", status: nil, retryAfter: nil))
    }

    @Test("a lease owner round-trips; this process is alive; a finished one and a recycled pid are dead")
    func leaseOwners() throws {
        let me = LeaseOwner.current
        #expect(LeaseOwner(me.description) == me)
        #expect(!me.isCertainlyDead)
        #expect(LeaseOwner("garbage") == nil)
        // Same pid, other start time: the pid was reused by another process.
        #expect(LeaseOwner(host: me.host, pid: me.pid, startTime: "x/1").isCertainlyDead)
        // A process that has exited.
        let finished = Process()
        finished.executableURL = URL(fileURLWithPath: "/bin/true")
        try finished.run()
        finished.waitUntilExit()
        #expect(LeaseOwner(host: me.host, pid: finished.processIdentifier, startTime: "x/1").isCertainlyDead)
        // On another host nothing is presumed: the lease must expire.
        #expect(!LeaseOwner(host: "elsewhere", pid: 1, startTime: "x/1").isCertainlyDead)
    }
}
