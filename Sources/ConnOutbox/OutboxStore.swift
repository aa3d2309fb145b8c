import ConnCore
import Foundation
import GRDB

/// The outbox in the local database. Every change is one IMMEDIATE transaction (GRDB's default
/// for a writable connection), so any number of conn processes can share it: a message is claimed by exactly one
/// deliverer through its lease, and a lease whose holder died is taken over.
public struct OutboxStore: Sendable {
    public let database: LocalDatabase
    /// Messages not delivered within this time after being queued fail as expired.
    public var expiry: Duration
    /// Sent messages older than this (by their sending) are pruned.
    public var keepSent: Duration
    public var backoff: Backoff
    /// The configured token with the proxy's credentials (`ConnConfiguration.outboxPauseIdentity`),
    /// kept in memory only: an auth pause stores its HMAC fingerprint.
    let token: String?

    /// For an explicit `--wait`: backoff earned by earlier failures (after 7 attempts, up to
    /// 64 s) must not outlast the whole wait, so it is capped at a quarter of it.
    public mutating func fitBackoff(within wait: Duration) {
        backoff.cap = min(backoff.cap, wait / 4)
    }

    public init(database: LocalDatabase, expiry: Duration, keepSent: Duration = .seconds(7 * 86_400), token: String?,
                backoff: Backoff = .standard) {
        self.database = database
        self.expiry = expiry
        self.keepSent = keepSent
        self.backoff = backoff
        self.token = token
    }

    // MARK: Writing messages

    /// Writes the message durably. With `leaseTo`, it starts leased to that deliverer (the
    /// sender's own first attempt), saving a second transaction.
    public func enqueue(_ draft: OutboxDraft, now: Date, leaseTo owner: LeaseOwner? = nil, lease: Duration = .seconds(60)) throws -> OutboxMessage {
        let id = UUID().uuidString.lowercased()
        return try database.writer.write { db in
            let nowSeconds = now.timeIntervalSince1970
            let state: OutboxMessage.State = owner == nil ? .pending : .sending
            let leaseUntil = owner.map { _ in now.addingTimeInterval(lease.seconds).timeIntervalSince1970 }
            try db.execute(literal: """
                INSERT INTO outboxMessage(id, toAddress, subject, text, responseToUid, createdAt, state, attempts, nextAttemptAt,
                                          lastAttemptAt, leaseOwner, leaseExpiresAt, origin, messagesURL, profile, queuedOrigin)
                VALUES (\(id), \(draft.to), \(draft.subject), \(draft.text), \(draft.responseToUid), \(nowSeconds), \(state),
                        \(owner == nil ? 0 : 1), \(nowSeconds), \(owner == nil ? nil : nowSeconds), \(owner?.description), \(leaseUntil),
                        \(draft.target?.origin), \(draft.target?.messagesURL), \(draft.profile), \(draft.target?.origin))
                """)
            if let owner { try Self.logAttemptStart(db, id: id, number: 1, owner: owner, now: now) }
            return try Self.fetch(db, id: id)!
        }
    }

    /// Writes an HTTP request durably (`conn request`), bound to its URL's origin. With
    /// `leaseTo`, it starts leased to that deliverer (the command's own first attempt).
    public func enqueue(request: StoredRequest, profile: String?, now: Date, leaseTo owner: LeaseOwner? = nil,
                        lease: Duration = .seconds(60)) throws -> OutboxMessage {
        let id = UUID().uuidString.lowercased()
        let origin = URL(string: request.url).flatMap(Origin.init)?.description ?? request.url
        let expect = request.expect.map(StoredJSON.text)
        return try database.writer.write { db in
            let nowSeconds = now.timeIntervalSince1970
            let state: OutboxMessage.State = owner == nil ? .pending : .sending
            let leaseUntil = owner.map { _ in now.addingTimeInterval(lease.seconds).timeIntervalSince1970 }
            try db.execute(literal: """
                INSERT INTO outboxMessage(id, toAddress, subject, text, createdAt, state, attempts, nextAttemptAt, lastAttemptAt, leaseOwner,
                                          leaseExpiresAt, origin, profile, queuedOrigin, kind, requestMethod, requestURL, requestHeaders,
                                          requestBody, expectStatuses, keyHeader)
                VALUES (\(id), '', '', '', \(nowSeconds), \(state), \(owner == nil ? 0 : 1), \(nowSeconds), \(owner == nil ? nil : nowSeconds),
                        \(owner?.description), \(leaseUntil), \(origin), \(profile), \(origin), \(OutboxMessage.Kind.request), \(request.method),
                        \(request.url), \(StoredJSON.text(request.headers)), \(request.body), \(expect), \(request.keyHeader))
                """)
            if let owner { try Self.logAttemptStart(db, id: id, number: 1, owner: owner, now: now) }
            return try Self.fetch(db, id: id)!
        }
    }

    /// Which messages a deliverer may take.
    public enum ClaimScope: Sendable {
        /// Everything waiting. A manual flush passes `ignoringBackoff: true`: the user said
        /// "now". The server's Retry-After is honoured either way.
        case due(ignoringBackoff: Bool)
        /// Only these messages, when due — or, `ignoringBackoff`, now (a message handed to the
        /// agent by `conn send`, whose own attempt earned that backoff).
        case ids([String], ignoringBackoff: Bool = false)
    }

    public struct Claim: Sendable {
        public var messages: [OutboxMessage]
        /// Set when the queue is paused for refused credentials; nothing is claimed then.
        public var pause: AuthPause?
        /// Messages that expired in this pass.
        public var expired: Int
    }

    /// Leases up to `limit` messages to `owner` and logs the start of an attempt for each.
    /// With `notAttemptedSince`, messages attempted since then are left alone: one pass of a
    /// flush tries each message once, however fast the failures come back.
    /// Only messages for `target`'s origin are taken (and those with none yet, which become its).
    public func claim(_ scope: ClaimScope, for target: OutboxTarget, notAttemptedSince passStart: Date? = nil, limit: Int, owner: LeaseOwner,
                      lease: Duration, now: Date) throws -> Claim {
        try database.writer.write { db in
            if let pause = try activePause(db) { return Claim(messages: [], pause: pause, expired: 0) }
            let expired = try expireOverdue(db, now: now)
            let nowSeconds = now.timeIntervalSince1970
            // Its server's messages (and those with none yet), and every request: each is bound
            // to its own URL's origin, which any deliverer sends it to.
            var filter = "state = :pending AND (notBefore IS NULL OR notBefore <= :now) AND "
                + (target == .requestsOnly ? "kind = 'request'" : "(kind = 'request' OR origin IS NULL OR origin = :origin)")
            var arguments: [String: (any DatabaseValueConvertible)?] = ["pending": OutboxMessage.State.pending, "now": nowSeconds, "limit": limit,
                                                                       "origin": target.origin]
            if let passStart {
                filter += " AND (lastAttemptAt IS NULL OR lastAttemptAt < :passStart)"
                arguments["passStart"] = passStart.timeIntervalSince1970
            }
            switch scope {
            case .due(let ignoringBackoff):
                if !ignoringBackoff { filter += " AND nextAttemptAt <= :now" }
            case .ids(let ids, let ignoringBackoff):
                if !ignoringBackoff { filter += " AND nextAttemptAt <= :now" }
                filter += " AND id IN (SELECT value FROM json_each(:ids))"
                arguments["ids"] = try Self.jsonArray(ids)
            }
            var ids = try String.fetchAll(
                db, sql: "SELECT id FROM outboxMessage WHERE \(filter) ORDER BY createdAt LIMIT :limit",
                arguments: StatementArguments(arguments))
            if ids.count < limit {
                ids += try reclaimable(db, scope: scope, origin: target.origin, owner: owner, now: now, limit: limit - ids.count)
            }
            let leaseUntil = now.addingTimeInterval(lease.seconds).timeIntervalSince1970
            let update = try db.cachedStatement(sql: """
                UPDATE outboxMessage SET state = :sending, leaseOwner = :owner, leaseExpiresAt = :leaseUntil, lastAttemptAt = :now,
                attempts = attempts + 1, origin = COALESCE(origin, :origin),
                messagesURL = CASE kind WHEN 'request' THEN messagesURL ELSE COALESCE(messagesURL, :messagesURL) END,
                queuedOrigin = COALESCE(queuedOrigin, :origin)
                WHERE id = :id RETURNING \(OutboxMessage.columns)
                """)
            var messages: [OutboxMessage] = []
            for id in ids {
                let arguments: StatementArguments = ["sending": OutboxMessage.State.sending, "owner": owner.description,
                                                     "leaseUntil": leaseUntil, "now": nowSeconds, "id": id,
                                                     "origin": target.origin, "messagesURL": target.messagesURL]
                // The leased message as it now stands, from the update itself (not read again),
                // decoded from the statement's row in place (a copy of the row was half the claim).
                let returned = try Row.fetchCursor(update, arguments: arguments)
                guard let message = try returned.next().map(OutboxMessage.init(row:)) else { continue }
                while try returned.next() != nil {}  // run to its end: a write still stepping would block the commit
                try Self.logAttemptStart(db, id: id, number: message.attempts, owner: owner, now: now)
                messages.append(message)
            }
            return Claim(messages: messages, pause: nil, expired: expired)
        }
    }

    /// Messages leased by a deliverer that is gone: its lease expired, or it died on this host.
    private func reclaimable(_ db: Database, scope: ClaimScope, origin: String, owner: LeaseOwner, now: Date, limit: Int) throws -> [String] {
        var query: SQL = """
            SELECT id, leaseOwner, leaseExpiresAt FROM outboxMessage WHERE state = \(OutboxMessage.State.sending) \
            AND leaseOwner IS NOT \(owner.description) AND \(Self.takenBy(origin))
            """
        if case .ids(let ids, _) = scope {
            query += " AND id IN (SELECT value FROM json_each(\(try Self.jsonArray(ids))))"
        }
        query += " ORDER BY createdAt LIMIT 1000"
        var ids: [String] = []
        var liveness: [String: Bool] = [:]
        for row in try SQLRequest<Row>(literal: query).fetchAll(db) where ids.count < limit {
            let holder: String? = row["leaseOwner"]
            let expiresAt: Double? = row["leaseExpiresAt"]
            if let expiresAt, expiresAt > now.timeIntervalSince1970, let holder {
                let dead = liveness[holder] ?? (LeaseOwner(holder)?.isCertainlyDead ?? false)
                liveness[holder] = dead
                if !dead { continue }
            }
            ids.append(row["id"])
        }
        return ids
    }

    /// Records how each attempt ended. A "sent" always counts (the server has the message); any
    /// other outcome only while this deliverer still holds the lease.
    /// `answers`: what the server answered requests (by id), kept with them.
    public func record(_ results: [(message: OutboxMessage, outcome: DeliveryOutcome)], answers: [String: KeptAnswer] = [:], owner: LeaseOwner,
                       now: Date) throws {
        try database.writer.write { db in
            let nowSeconds = now.timeIntervalSince1970
            for (message, outcome) in results {
                if let answer = answers[message.id] {
                    try Self.execute(db, "UPDATE outboxMessage SET answerStatus = ?, answerHeaders = ?, answerBody = ?, answerBytes = ? WHERE id = ?",
                                     [answer.status, StoredJSON.text(answer.headers), answer.body, answer.bytes, message.id])
                }
                try Self.execute(db, """
                    UPDATE outboxAttempt SET finishedAt = ?, outcome = ?, httpStatus = ?, code = ?, detail = ?
                    WHERE messageId = ? AND number = ? AND leaseOwner = ?
                    """, [nowSeconds, outcome.label, outcome.status, outcome.code, outcome.message, message.id, message.attempts, owner.description])
                switch outcome {
                case .sent(let uid, let dateTime, _, _):
                    try Self.execute(db, """
                        UPDATE outboxMessage SET state = 'sent', sentAt = ?, serverUid = NULLIF(?, ''), serverDateTime = ?, failureReason = NULL,
                        lastErrorCode = NULL, lastError = NULL, \(Self.released), notBefore = NULL
                        WHERE id = ? AND state != 'sent'
                        """, [nowSeconds, uid, dateTime, message.id])
                case .retry(let code, let text, _, let retryAfter):
                    let expiresAt = message.createdAt.addingTimeInterval(expiry.seconds)
                    if expiresAt <= now {
                        let error = "not delivered within \(TimeFormatting.duration(expiry)); last error: \(text)"
                        try Self.fail(db, message, reason: .expired, code: code, error: error, owner: owner)
                    } else {
                        let next = now.addingTimeInterval(backoff.delay(afterAttempt: message.attempts).seconds).timeIntervalSince1970
                        let notBefore = retryAfter.map { now.addingTimeInterval($0.seconds).timeIntervalSince1970 }
                        try Self.execute(db, """
                            UPDATE outboxMessage SET state = 'pending', nextAttemptAt = ?, notBefore = ?, lastErrorCode = ?, lastError = ?, \(Self.released)
                            WHERE \(Self.held)
                            """, [next, notBefore, code, text, message.id, owner.description])
                    }
                case .rejected(let code, let text, _):
                    try Self.fail(db, message, reason: .rejected, code: code, error: text, owner: owner)
                case .auth(let code, let text, _):
                    try Self.fail(db, message, reason: .auth, code: code, error: text, owner: owner)
                    let key = try AuthPause.fingerprintKey(db, create: true)!
                    let pause = AuthPause(since: now, message: text, tokenFingerprint: AuthPause.fingerprint(of: token, key: key))
                    try LocalDatabase.setMetaValue(db, AuthPause.metaKey, pause.stored)
                }
            }
        }
    }

    /// Brings states up to date before they are shown: a lease whose holder is gone returns its
    /// message to pending (the attempt stays in the log as interrupted), and waiting messages
    /// older than the expiry fail as expired. Returns how many expired.
    @discardableResult
    public func expireOverdue(now: Date) throws -> Int {
        // A read-only database is shown as it was stored: bringing it up to date would write.
        guard !database.isReadOnly else { return 0 }
        return try database.writer.write { db in
            let sending: SQL = "SELECT id, leaseOwner, leaseExpiresAt FROM outboxMessage WHERE state = \(OutboxMessage.State.sending)"
            let abandoned = try SQLRequest<Row>(literal: sending).fetchAll(db).filter { row in
                let expiresAt = (row["leaseExpiresAt"] as Double?).map(Date.init(timeIntervalSince1970:))
                return !Self.leaseIsLive(holder: row["leaseOwner"], expiresAt: expiresAt, now: now)
            }
            for row in abandoned {
                let id: String = row["id"]
                try db.execute(literal: "UPDATE outboxMessage SET state = \(OutboxMessage.State.pending), leaseOwner = NULL, leaseExpiresAt = NULL WHERE id = \(id)")
            }
            return try expireOverdue(db, now: now)
        }
    }

    private func expireOverdue(_ db: Database, now: Date) throws -> Int {
        // Sent messages are kept for `keepSent`, then pruned with their attempts (cascade).
        try db.execute(literal: """
            DELETE FROM outboxMessage WHERE state = \(OutboxMessage.State.sent) AND sentAt <= \(now.addingTimeInterval(-keepSent.seconds).timeIntervalSince1970)
            """)
        let cutoff = now.addingTimeInterval(-expiry.seconds).timeIntervalSince1970
        let notice = "not delivered within \(TimeFormatting.duration(expiry))"
        try db.execute(literal: """
            UPDATE outboxMessage SET state = \(OutboxMessage.State.failed), failureReason = \(OutboxMessage.FailureReason.expired),
            leaseOwner = NULL, leaseExpiresAt = NULL, lastError = \(notice) || COALESCE('; last error: ' || lastError, '')
            WHERE createdAt <= \(cutoff) AND (state = \(OutboxMessage.State.pending)
                                             OR (state = \(OutboxMessage.State.sending) AND leaseExpiresAt <= \(now.timeIntervalSince1970)))
            """)
        return db.changesCount
    }

    // MARK: The auth pause

    /// The pause, if the configured token is the one that was refused. A pause left by another
    /// token is lifted, and the messages it failed go back to the queue.
    private func activePause(_ db: Database) throws -> AuthPause? {
        if let pause = try pauseOfThisToken(db) { return pause }
        guard try LocalDatabase.metaValue(db, AuthPause.metaKey) != nil else { return nil }
        try db.execute(sql: "DELETE FROM meta WHERE key = ?", arguments: [AuthPause.metaKey])
        try db.execute(literal: """
            UPDATE outboxMessage SET state = \(OutboxMessage.State.pending), failureReason = NULL, nextAttemptAt = 0
            WHERE state = \(OutboxMessage.State.failed) AND failureReason = \(OutboxMessage.FailureReason.auth)
            """)
        return nil
    }

    public func pause() throws -> AuthPause? {
        try database.writer.read { db in try pauseOfThisToken(db) }
    }

    /// The stored pause, if it belongs to the configured token (its fingerprint matches).
    private func pauseOfThisToken(_ db: Database) throws -> AuthPause? {
        guard let stored = try LocalDatabase.metaValue(db, AuthPause.metaKey), let pause = AuthPause(stored: stored),
            let key = try AuthPause.fingerprintKey(db, create: false), pause.tokenFingerprint == AuthPause.fingerprint(of: token, key: key)
        else { return nil }
        return pause
    }

    // MARK: Reading

    /// The items in `states` (all when nil), oldest first; with `after`, only those after that
    /// item (its id) in this order; at most `limit`.
    public func list(states: [OutboxMessage.State]? = nil, after: String? = nil, limit: Int? = nil) throws -> [OutboxMessage] {
        try database.writer.read { db in
            // In the index's order, the states filtered as it goes: a page of 100,000 items stops
            // after its rows instead of sorting every one (the planner would pick the state index).
            var query: SQL = "SELECT \(sql: OutboxMessage.columns) FROM outboxMessage INDEXED BY outboxMessage_listOrder"
            var conditions: [SQL] = []
            if let states { conditions.append("state IN \(states)") }
            if let after { conditions.append("(createdAt, id) > (SELECT createdAt, id FROM outboxMessage WHERE id = \(after))") }
            if !conditions.isEmpty { query += " WHERE " + conditions.joined(separator: " AND ") }
            query += " ORDER BY createdAt, id"
            if let limit { query += " LIMIT \(limit)" }
            return try SQLRequest<Row>(literal: query).fetchAll(db).map(OutboxMessage.init(row:))
        }
    }

    public func message(id: String) throws -> OutboxMessage? {
        try database.writer.read { db in try Self.fetch(db, id: id) }
    }

    /// "(2 waiting, 5 sent and kept)": what the outbox holds besides failed messages, for
    /// `resend` and `delete --failed` when none failed.
    func holdingBesidesFailed() throws -> String {
        let counts = try counts()
        return "(\((counts[.pending] ?? 0) + (counts[.sending] ?? 0)) waiting, \(counts[.sent] ?? 0) sent and kept)"
    }

    /// How many items are in `state` (through the state's index: `counts()` reads them all).
    public func count(_ state: OutboxMessage.State) throws -> Int {
        try database.writer.read { db in
            try SQLRequest<Int>(literal: "SELECT COUNT(*) FROM outboxMessage WHERE state = \(state)").fetchOne(db) ?? 0
        }
    }

    public func counts() throws -> [OutboxMessage.State: Int] {
        try database.writer.read { db in
            var counts: [OutboxMessage.State: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT state, COUNT(*) FROM outboxMessage GROUP BY state") {
                if let state = OutboxMessage.State(rawValue: row[0]) { counts[state] = row[1] }
            }
            return counts
        }
    }

    /// Items per kind and state, for the metrics.
    public func countsByKind() throws -> [OutboxMessage.Kind: [OutboxMessage.State: Int]] {
        try database.writer.read { db in
            var counts: [OutboxMessage.Kind: [OutboxMessage.State: Int]] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT kind, state, COUNT(*) FROM outboxMessage GROUP BY kind, state") {
                if let kind = OutboxMessage.Kind(rawValue: row[0]), let state = OutboxMessage.State(rawValue: row[1]) { counts[kind, default: [:]][state] = row[2] }
            }
            return counts
        }
    }

    /// Waiting replies to any of `uids`, for showing them in their inbox thread.
    /// The replies not yet delivered (pending, sending, failed), oldest first: a handful, so a
    /// thread of 100,000 messages picks its own from these instead of sending its uids to SQLite.
    public func undeliveredReplies() throws -> [OutboxMessage] {
        try database.writer.read { db in
            try SQLRequest<Row>(literal: """
                SELECT \(sql: OutboxMessage.columns) FROM outboxMessage
                WHERE state != \(OutboxMessage.State.sent) AND responseToUid IS NOT NULL AND responseToUid != '' ORDER BY createdAt
                """).fetchAll(db).map(OutboxMessage.init(row:))
        }
    }

    public func attempts(id: String) throws -> [OutboxAttempt] {
        try database.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM outboxAttempt WHERE messageId = ? ORDER BY number, rowid", arguments: [id])
                .map(OutboxAttempt.init(row:))
        }
    }

    /// The message each argument names: a full id or an unambiguous prefix of one.
    public func resolve(_ prefixes: [String]) throws -> [OutboxMessage] {
        try database.writer.read { db in
            var found: [OutboxMessage] = []
            for prefix in prefixes {
                let text = prefix.lowercased()
                guard !text.isEmpty, text.allSatisfy({ $0.isHexDigit || $0 == "-" }) else {
                    throw ConnError.usage("'\(TerminalSanitizer.sanitize(prefix))' is not an outbox id (ids are hexadecimal, as `conn outbox list` shows them)")
                }
                let matches = try Row.fetchAll(
                    db, sql: "SELECT \(OutboxMessage.columns) FROM outboxMessage WHERE substr(id, 1, ?) = ? ORDER BY createdAt LIMIT 6",
                    arguments: [text.count, text]
                ).map(OutboxMessage.init(row:))
                switch matches.count {
                case 0:
                    throw ConnError.unavailable(.noSuchMessage, "no outbox message with id '\(text)'", hint: "`conn outbox list` shows the ids.")
                case 1:
                    if !found.contains(where: { $0.id == matches[0].id }) { found.append(matches[0]) }
                default:
                    let shown = matches.prefix(5).map(\.shortID).joined(separator: ", ")
                    throw ConnError.usage("id prefix '\(text)' matches several messages: \(shown)\(matches.count > 5 ? ", …" : "")", hint: "Give more of the id.")
                }
            }
            return found
        }
    }

    // MARK: Resend and delete

    /// Puts messages back in the queue, due now, with the same id (and so the same
    /// Idempotency-Key). A sent message is refused; so is one being sent right now. Resending
    /// ends an auth pause: the user says the cause is fixed.
    public func resend(_ ids: [String], now: Date) throws -> [OutboxMessage] {
        try database.writer.write { db in
            try db.execute(sql: "DELETE FROM meta WHERE key = ?", arguments: [AuthPause.metaKey])
            var updated: [OutboxMessage] = []
            for id in ids {
                guard let message = try Self.fetch(db, id: id) else { continue }
                switch message.state {
                case .sent:
                    throw ConnError.dataError(.alreadySent, "message \(message.shortID) was already sent (server uid \(message.serverUid ?? "unknown")); nothing to resend")
                case .sending where Self.leaseIsLive(holder: message.leaseOwner, expiresAt: message.leaseExpiresAt, now: now):
                    throw ConnError.temporary(.messageBeingSent, "message \(message.shortID) is being sent right now by \(message.leaseOwner ?? "another process")", hint: "Wait for that attempt to end, then look again with `conn outbox show \(message.shortID)`.")
                default:
                    // A fresh expiry window: a resent message gets the full time again.
                    let nowSeconds = now.timeIntervalSince1970
                    try db.execute(literal: """
                        UPDATE outboxMessage SET state = \(OutboxMessage.State.pending), failureReason = NULL, nextAttemptAt = \(nowSeconds),
                        notBefore = NULL, leaseOwner = NULL, leaseExpiresAt = NULL, createdAt = \(nowSeconds) WHERE id = \(id)
                        """)
                    updated.append(try Self.fetch(db, id: id)!)
                }
            }
            return updated
        }
    }

    /// Deletes messages (and their audit log). One being sent right now is refused: deleting it
    /// would not stop the request already on its way.
    /// Moves messages to `target` (the user said so: `outbox retarget`): from now on they are
    /// delivered there, with that server's own Idempotency-Key, and due at once. A sent message
    /// stays where it went; one being sent cannot move mid-request.
    public func retarget(_ ids: [String], to target: OutboxTarget, now: Date) throws -> [OutboxMessage] {
        try database.writer.write { db in
            var moved: [OutboxMessage] = []
            for id in ids {
                guard let message = try Self.fetch(db, id: id) else { continue }
                if message.kind == .request {
                    throw ConnError.usage("request \(message.shortID) is bound to its URL's origin, \(message.origin ?? "its server"); it cannot move",
                                          hint: "Queue a new request to the other URL (`conn request`) and delete this one.")
                }
                if message.state == .sent {
                    throw ConnError.usage("message \(message.shortID) was sent to \(message.origin ?? "its server") already; it cannot move",
                                          hint: "Send a new message to the other server instead.")
                }
                if message.state == .sending, Self.leaseIsLive(holder: message.leaseOwner, expiresAt: message.leaseExpiresAt, now: now) {
                    throw ConnError.temporary(.messageBeingSent, "message \(message.shortID) is being sent right now; it cannot move",
                                              hint: "Wait for the attempt to end; if it fails, move it then.")
                }
                try db.execute(literal: """
                    UPDATE outboxMessage SET origin = \(target.origin), messagesURL = \(target.messagesURL),
                    queuedOrigin = COALESCE(queuedOrigin, origin, \(target.origin)),
                    nextAttemptAt = \(now.timeIntervalSince1970), notBefore = NULL,
                    state = CASE state WHEN \(OutboxMessage.State.sending) THEN \(OutboxMessage.State.pending) ELSE state END,
                    leaseOwner = NULL, leaseExpiresAt = NULL
                    WHERE id = \(id)
                    """)
                if let updated = try Self.fetch(db, id: id) { moved.append(updated) }
            }
            return moved
        }
    }

    public func delete(_ ids: [String], now: Date) throws -> [OutboxMessage] {
        try database.writer.write { db in
            var deleted: [OutboxMessage] = []
            for id in ids {
                guard let message = try Self.fetch(db, id: id) else { continue }
                if message.state == .sending, Self.leaseIsLive(holder: message.leaseOwner, expiresAt: message.leaseExpiresAt, now: now) {
                    throw ConnError.temporary(.messageBeingSent, "message \(message.shortID) is being sent right now; it cannot be deleted",
                                              hint: "Wait for the attempt to end; if it fails, delete it then.")
                }
                // Its attempts go with it: outboxAttempt.messageId cascades (GRDB enables foreign keys).
                try db.execute(literal: "DELETE FROM outboxMessage WHERE id = \(id)")
                deleted.append(message)
            }
            return deleted
        }
    }

    // MARK: Helpers

    static func fetch(_ db: Database, id: String) throws -> OutboxMessage? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT \(OutboxMessage.columns) FROM outboxMessage WHERE id = ?"), arguments: [id])
            .map(OutboxMessage.init(row:))
    }

    private static func logAttemptStart(_ db: Database, id: String, number: Int, owner: LeaseOwner, now: Date) throws {
        try execute(db, "INSERT INTO outboxAttempt(messageId, number, leaseOwner, startedAt, outcome) VALUES (?, ?, ?, ?, ?)",
                    [id, number, owner.description, now.timeIntervalSince1970, OutboxAttempt.started])
    }

    /// Runs `sql` through the connection's statement cache: the statements that run once per
    /// message of a flush are compiled once per connection, not once per message (compiling,
    /// with GRDB's authorizer called back for every column, was a tenth of a flush's CPU).
    /// Fixed SQL text with `?` arguments, not an `SQL` literal: building the literal's text
    /// for every message was 4 % of a flush's CPU.
    private static func execute(_ db: Database, _ sql: String, _ arguments: StatementArguments) throws {
        try db.cachedStatement(sql: sql).execute(arguments: arguments)
    }

    /// Any outcome but "sent" counts only while this deliverer still holds the lease (two
    /// arguments: the message's id, the owner).
    private static let held = "id = ? AND state = 'sending' AND leaseOwner = ?"
    private static let released = "leaseOwner = NULL, leaseExpiresAt = NULL"

    /// Fails a message this deliverer holds.
    private static func fail(_ db: Database, _ message: OutboxMessage, reason: OutboxMessage.FailureReason, code: String, error: String,
                             owner: LeaseOwner) throws {
        try execute(db, "UPDATE outboxMessage SET state = 'failed', failureReason = ?, lastErrorCode = ?, lastError = ?, \(released) WHERE \(held)",
                    [reason, code, error, message.id, owner.description])
    }

    /// Whether a lease still protects its message: not expired, and its holder not known dead.
    static func leaseIsLive(holder: String?, expiresAt: Date?, now: Date) -> Bool {
        guard let expiresAt, expiresAt > now else { return false }
        return !(LeaseOwner(holder ?? "")?.isCertainlyDead ?? false)
    }

    /// A JSON array for SQLite's json_each: one bound parameter however many ids.
    private static func jsonArray(_ values: [String]) throws -> String {
        String(decoding: try JSONEncoder().encode(values), as: UTF8.self)
    }
}

extension OutboxStore {
    /// When something may next become deliverable: a pending message's due time (its backoff
    /// and the server's Retry-After) or a lease running out. Nil when nothing is waiting.
    /// Only messages for `origin` count (and those with no server yet): a deliverer must not
    /// wake for a message it will not take.
    public func nextWakeUp(respectingBackoff: Bool, for origin: String) throws -> Date? {
        try database.writer.read { db in
            let due = respectingBackoff ? "MAX(nextAttemptAt, COALESCE(notBefore, 0))" : "COALESCE(notBefore, 0)"
            let seconds = try SQLRequest<Double?>(literal: """
                SELECT MIN(t) FROM (
                  SELECT \(sql: due) AS t FROM outboxMessage WHERE state = \(OutboxMessage.State.pending) AND \(Self.takenBy(origin))
                  UNION ALL SELECT leaseExpiresAt FROM outboxMessage WHERE state = \(OutboxMessage.State.sending) AND \(Self.takenBy(origin)))
                """).fetchOne(db) ?? nil
            return seconds.map(Date.init(timeIntervalSince1970:))
        }
    }

    /// How many messages are still on their way (pending or being sent): for `origin` (and
    /// those with no server yet), or all of them.
    public func waitingCount(for origin: String? = nil) throws -> Int {
        try database.writer.read { db in
            var query: SQL = "SELECT COUNT(*) FROM outboxMessage WHERE state IN \([OutboxMessage.State.pending, .sending])"
            if let origin { query += " AND \(Self.takenBy(origin))" }
            return try SQLRequest<Int>(literal: query).fetchOne(db) ?? 0
        }
    }

    /// How many of one kind are still on their way (pending or being sent), for any server.
    public func waitingCount(kind: OutboxMessage.Kind) throws -> Int {
        try database.writer.read { db in
            try SQLRequest<Int>(literal: "SELECT COUNT(*) FROM outboxMessage WHERE state IN \([OutboxMessage.State.pending, .sending]) AND kind = \(kind)")
                .fetchOne(db) ?? 0
        }
    }

    /// The messages a deliverer for `origin` takes: its own, and those with no server yet (which
    /// become its own when it claims them).
    static func takenBy(_ origin: String) -> SQL {
        origin == OutboxTarget.requestsOnly.origin ? "kind = 'request'" : "(kind = 'request' OR origin IS NULL OR origin = \(origin))"
    }

    /// Messages waiting for each server other than `origin`: they wait for their own.
    public func waitingElsewhere(than origin: String?) throws -> [String: Int] {
        try database.writer.read { db in
            let rows = try SQLRequest<Row>(literal: """
                SELECT origin, COUNT(*) AS count FROM outboxMessage
                WHERE state IN \([OutboxMessage.State.pending, .sending]) AND kind = 'message' AND origin IS NOT NULL AND origin IS NOT \(origin)
                GROUP BY origin
                """).fetchAll(db)
            return Dictionary(uniqueKeysWithValues: rows.map { ($0["origin"] as String, $0["count"] as Int) })
        }
    }
}
