import ConnCore
@testable import ConnOutbox
import ConnTestSupport
import Foundation
import GRDB
import Testing

/// The outbox store on a real SQLite file: leases, expiry, the auth pause, resend and delete.
@Suite("outbox store")
struct OutboxStoreTests {
    let home: TemporaryDirectory
    let store: OutboxStore

    init() throws {
        home = try TemporaryDirectory()
        let database = try LocalDatabase(path: home.path + "/conn.sqlite", migrations: OutboxMigrations.all)
        store = OutboxStore(database: database, expiry: .seconds(3600), token: "secret")
    }

    static let draft = OutboxDraft(to: "ada@example.com", subject: "hello", text: "body", responseToUid: nil)
    static let alive = LeaseOwner.current
    static let target = OutboxTarget(messagesURL: URL(string: "http://127.0.0.1:8080/messages")!)
    static let otherAlive = LeaseOwner(host: LeaseOwner.current.host, pid: 1, startTime: LeaseOwner.startTime(of: 1) ?? "?")

    @Test("a claimed message is leased to one deliverer; others cannot take it while the holder lives")
    func leasesAreExclusive() throws {
        let now = Date()
        let message = try store.enqueue(Self.draft, now: now)
        let first = try store.claim(.due(ignoringBackoff: true), for: Self.target, limit: 10, owner: Self.alive, lease: .seconds(60), now: now)
        #expect(first.messages.map(\.id) == [message.id])
        #expect(first.messages[0].state == .sending && first.messages[0].attempts == 1)
        let second = try store.claim(.due(ignoringBackoff: true), for: Self.target, limit: 10, owner: Self.otherAlive, lease: .seconds(60), now: now)
        #expect(second.messages.isEmpty)
        // After the lease runs out, it can be taken over.
        let later = try store.claim(.due(ignoringBackoff: true), for: Self.target, limit: 10, owner: Self.otherAlive, lease: .seconds(60), now: now.addingTimeInterval(61))
        #expect(later.messages.map(\.id) == [message.id])
        #expect(later.messages[0].attempts == 2)
    }

    @Test("a lease held by a dead process on this host is taken over at once, and its attempt shows as interrupted")
    func deadHoldersLoseTheirLease() throws {
        let now = Date()
        let dead = LeaseOwner(host: LeaseOwner.current.host, pid: Self.alive.pid, startTime: "gone/0")
        let message = try store.enqueue(Self.draft, now: now, leaseTo: dead, lease: .seconds(600))
        let claim = try store.claim(.due(ignoringBackoff: false), for: Self.target, limit: 10, owner: Self.alive, lease: .seconds(60), now: now)
        #expect(claim.messages.map(\.id) == [message.id])
        let log = try store.attempts(id: message.id)
        #expect(log.map(\.outcome) == ["started", "started"])
        #expect(log.map(\.leaseOwner) == [dead.description, Self.alive.description])
    }

    @Test("a retry waits for the backoff (automatic) but not for a manual flush; Retry-After binds both")
    func backoffAndRetryAfter() throws {
        let now = Date()
        let message = try store.enqueue(Self.draft, now: now, leaseTo: Self.alive)
        try store.record([(message, .retry(code: "http503", message: "busy", status: 503, retryAfter: nil))], owner: Self.alive, now: now)
        var stored = try #require(try store.message(id: message.id))
        #expect(stored.state == .pending && stored.lastErrorCode == "http503")
        #expect(stored.nextAttemptAt >= now && stored.nextAttemptAt <= now.addingTimeInterval(1.001))
        let manual = try store.claim(.due(ignoringBackoff: true), for: Self.target, limit: 1, owner: Self.alive, lease: .seconds(60), now: now)
        #expect(manual.messages.count == 1)
        try store.record([(manual.messages[0], .retry(code: "http429", message: "slow down", status: 429, retryAfter: .seconds(30)))], owner: Self.alive, now: now)
        stored = try #require(try store.message(id: message.id))
        #expect(stored.notBefore.map { abs($0.timeIntervalSince(now) - 30) < 0.01 } == true)
        #expect(try store.claim(.due(ignoringBackoff: true), for: Self.target, limit: 1, owner: Self.alive, lease: .seconds(60), now: now.addingTimeInterval(29)).messages.isEmpty)
        #expect(try store.claim(.due(ignoringBackoff: true), for: Self.target, limit: 1, owner: Self.alive, lease: .seconds(60), now: now.addingTimeInterval(31)).messages.count == 1)
    }

    @Test("one pass tries each message once however fast failures come back")
    func onePassOneAttempt() throws {
        let start = Date()
        _ = try store.enqueue(Self.draft, now: start)
        let claim = try store.claim(.due(ignoringBackoff: true), for: Self.target, notAttemptedSince: start, limit: 5, owner: Self.alive, lease: .seconds(60), now: start.addingTimeInterval(0.01))
        try store.record([(claim.messages[0], .retry(code: "refused", message: "down", status: nil, retryAfter: nil))], owner: Self.alive, now: start.addingTimeInterval(0.02))
        #expect(try store.claim(.due(ignoringBackoff: true), for: Self.target, notAttemptedSince: start, limit: 5, owner: Self.alive, lease: .seconds(60), now: start.addingTimeInterval(0.03)).messages.isEmpty)
    }

    @Test("messages older than the expiry fail as expired, keeping the last error")
    func expiry() throws {
        let then = Date()
        let message = try store.enqueue(Self.draft, now: then, leaseTo: Self.alive)
        try store.record([(message, .retry(code: "refused", message: "nothing listens", status: nil, retryAfter: nil))], owner: Self.alive, now: then)
        #expect(try store.expireOverdue(now: then.addingTimeInterval(3599)) == 0)
        #expect(try store.expireOverdue(now: then.addingTimeInterval(3601)) == 1)
        let stored = try #require(try store.message(id: message.id))
        #expect(stored.state == .failed && stored.failureReason == .expired)
        #expect(stored.lastError == "not delivered within 1h; last error: nothing listens")
    }

    @Test("401 fails the message and pauses the queue for that token; another token lifts it and requeues")
    func authPause() throws {
        let now = Date()
        let refused = try store.enqueue(Self.draft, now: now, leaseTo: Self.alive)
        let waiting = try store.enqueue(Self.draft, now: now)
        try store.record([(refused, .auth(code: "unauthorized", message: "401: bad token", status: 401))], owner: Self.alive, now: now)
        #expect(try store.message(id: refused.id)?.failureReason == .auth)
        let paused = try store.claim(.due(ignoringBackoff: true), for: Self.target, limit: 10, owner: Self.alive, lease: .seconds(60), now: now)
        #expect(paused.pause?.message == "401: bad token" && paused.messages.isEmpty)
        // What is stored is an HMAC under this database's random key: not the token, not a bare
        // hash of it, and not the same value in another database for the same token.
        let stored = try #require(try store.database.metaValue("outbox.authPause"))
        #expect(stored.hasPrefix("hmac-sha256:") && !stored.contains("secret"))
        let other = try LocalDatabase(path: home.path + "/other.sqlite", migrations: OutboxMigrations.all)
        let otherStore = OutboxStore(database: other, expiry: .seconds(3600), token: "secret")
        let otherRefused = try otherStore.enqueue(Self.draft, now: now, leaseTo: Self.alive)
        try otherStore.record([(otherRefused, .auth(code: "unauthorized", message: "401: bad token", status: 401))], owner: Self.alive, now: now)
        let otherStored = try #require(try other.metaValue("outbox.authPause"))
        #expect(otherStored.split(separator: "|").first != stored.split(separator: "|").first)
        // The same database with a new token: the pause is lifted, the refused message is back.
        let renewed = OutboxStore(database: store.database, expiry: .seconds(3600), token: "new-secret")
        let claim = try renewed.claim(.due(ignoringBackoff: true), for: Self.target, limit: 10, owner: Self.alive, lease: .seconds(60), now: now)
        #expect(Set(claim.messages.map(\.id)) == [refused.id, waiting.id])
        #expect(claim.pause == nil)
    }

    @Test("resend keeps the id; a sent message cannot be resent; delete refuses a live lease")
    func resendAndDelete() throws {
        let now = Date()
        let rejected = try store.enqueue(Self.draft, now: now, leaseTo: Self.alive)
        try store.record([(rejected, .rejected(code: "bodyTooLarge", message: "413: too large", status: 413))], owner: Self.alive, now: now)
        let resent = try store.resend([rejected.id], now: now)
        #expect(resent.map(\.id) == [rejected.id] && resent[0].state == .pending && resent[0].failureReason == nil)

        let sent = try store.enqueue(Self.draft, now: now, leaseTo: Self.alive)
        try store.record([(sent, .sent(uid: "m1", dateTime: "2026-11-22T10:00:00Z", replayed: false, status: 201))], owner: Self.alive, now: now)
        #expect(throws: ConnError.self) { try store.resend([sent.id], now: now) }

        let inFlight = try store.enqueue(Self.draft, now: now, leaseTo: Self.alive)
        #expect(throws: ConnError.self) { try store.delete([inFlight.id], now: now) }
        #expect(try store.delete([rejected.id, sent.id], now: now).count == 2)
        #expect(try store.list().map(\.id) == [inFlight.id])
        #expect(try store.attempts(id: rejected.id).isEmpty)
    }

    @Test("ids resolve by unambiguous prefix; an unknown or ambiguous one is a clear error")
    func prefixes() throws {
        let now = Date()
        let messages = try (0..<40).map { _ in try store.enqueue(Self.draft, now: now) }
        let target = messages[7]
        #expect(try store.resolve([String(target.id.prefix(12))]).map(\.id) == [target.id])
        #expect(try store.resolve([target.id.uppercased()]).map(\.id) == [target.id])
        // 40 random ids share a first hex digit with near certainty.
        let firstDigits = Dictionary(grouping: messages, by: { $0.id.prefix(1) })
        let shared = try #require(firstDigits.first { $0.value.count > 1 }?.key)
        #expect(throws: ConnError.self) { try store.resolve([String(shared)]) }
        #expect(throws: ConnError.self) { try store.resolve(["zz"]) }
        #expect(throws: ConnError.self) { try store.resolve(["ffffffff-ffff"]) }
    }
}
