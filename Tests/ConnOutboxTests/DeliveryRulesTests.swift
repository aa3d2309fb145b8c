import ConnCore
import ConnProtocol
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

    static let submission = MessageSubmission(to: "c@d.ee", subject: "s", text: "t", responseToUid: nil)
    static let key = "6F9619FF-8B86-D011-B42D-00C04FC964FF"

    static func classify(_ response: HTTPExchangeResponse, now: Date = Date()) -> DeliveryOutcome {
        DeliveryOutcome.classify(response, submission: submission, key: key, now: now)
    }

    @Test("answers are classified: an accepting 2xx sent; 401/403 auth; 3xx, 408/409/425/429/5xx retry; other 4xx rejected")
    func classification() {
        let now = Date()
        let accepted = #"{"uid":"m7","dateTime":"2026-11-22T10:00:00Z","message":{"uid":"m7","from":"a@b.cc","to":"c@d.ee","subject":"s","text":"t","responseToUid":"","dateTime":"2026-11-22T10:00:00Z"}}"#
        #expect(Self.classify(Self.response(201, accepted)) == .sent(uid: "m7", dateTime: "2026-11-22T10:00:00Z", replayed: false, status: 201))
        #expect(Self.classify(Self.response(200, accepted, headers: [("Idempotent-Replayed", "true")]))
            == .sent(uid: "m7", dateTime: "2026-11-22T10:00:00Z", replayed: true, status: 200))
        for status in [401, 403] {
            #expect(Self.classify(Self.response(status)).label == "auth")
        }
        for status in [300, 301, 302, 303, 307, 308, 408, 409, 425, 429, 500, 502, 503, 504] {
            #expect(Self.classify(Self.response(status)).label == "retry", "\(status)")
        }
        for status in [400, 404, 405, 413, 422] {
            #expect(Self.classify(Self.response(status)).label == "rejected", "\(status)")
        }
        let limited = Self.classify(Self.response(429, #"{"error":{"code":"slowDown","message":"too many"}}"#, headers: [("Retry-After", "12")]), now: now)
        #expect(limited == .retry(code: "slowDown", message: "429: too many", status: 429, retryAfter: .seconds(12)))
        #expect(DeliveryOutcome.classify(ConnError.unavailable(.refused, "nothing listens")) == .retry(code: "refused", message: "nothing listens", status: nil, retryAfter: nil))
    }

    @Test("a 2xx proves delivery only by accepting this very message: portal pages, empty bodies and other messages' answers are retried")
    func deliveryProof() {
        func accepted(uid: String = "m7", to: String = "c@d.ee", subject: String = "s", text: String = "t", responseToUid: String = "",
                      key: String? = nil) -> String {
            let keyField = key.map { #","idempotencyKey":"\#($0)""# } ?? ""
            return #"{"uid":"\#(uid)","dateTime":"x","message":{"uid":"\#(uid)","from":"a@b.cc","to":"\#(to)","subject":"\#(subject)","text":"\#(text)","responseToUid":"\#(responseToUid)","dateTime":"x"}\#(keyField)}"#
        }
        #expect(Self.classify(Self.response(201, accepted(key: Self.key.lowercased()))).label == "sent")
        let portal = Self.classify(Self.response(200, "<html><body>Sign in to the hotel Wi-Fi</body></html>", headers: [("Content-Type", "text/html")]))
        #expect(portal.label == "retry" && portal.code == "portal")
        #expect(Self.classify(Self.response(200, "<!DOCTYPE html><title>Login</title>")).code == "portal")
        for body in ["", "{}", "null", #"{"ok":true}"#, accepted(uid: ""), accepted(to: "x@y.zz"), accepted(subject: "other"),
                     accepted(text: "other"), accepted(responseToUid: "9"), accepted(key: "00000000-0000-0000-0000-000000000000"),
                     accepted(uid: String(repeating: "u", count: 300))] {
            let outcome = Self.classify(Self.response(200, body))
            #expect(outcome.label == "retry" && outcome.code == "unprovenDelivery", "\(body.prefix(80))")
        }
        let redirect = Self.classify(Self.response(302, "", headers: [("Location", "http://portal.example/login")]))
        #expect(redirect.code == "redirected" && redirect.message?.contains("portal.example/login") == true)
    }

    @Test("a lease owner round-trips; this process is alive; a finished one and a recycled pid are dead")
    func leaseOwners() async throws {
        let me = LeaseOwner.current
        #expect(LeaseOwner(me.description) == me)
        #expect(!me.isCertainlyDead)
        #expect(LeaseOwner("garbage") == nil)
        // Same pid, other start time: the pid was reused by another process.
        #expect(LeaseOwner(host: me.host, pid: me.pid, startTime: "x/1").isCertainlyDead)
        // A process that has exited.
        let finished = try SpawnedProcess("/bin/true", [])
        await finished.exited()
        #expect(LeaseOwner(host: me.host, pid: finished.processIdentifier, startTime: "x/1").isCertainlyDead)
        // On another host nothing is presumed: the lease must expire.
        #expect(!LeaseOwner(host: "elsewhere", pid: 1, startTime: "x/1").isCertainlyDead)
    }
}
