import ConnProtocol
import Foundation
import GRDB
import Synchronization

/// The server's data: the inbox and the idempotency records of `POST /messages`.
///
/// One implementation for both modes: SQLite in memory by default, or a file (`--data`) that
/// survives restarts. Storing a new message and recording its idempotency answer happen in one
/// transaction, so a retried request can never store a message twice.
public final class MailStore: Sendable {
    private let database: any DatabaseWriter
    /// Bumped on every change; with `bootID` it makes the inbox's ETag.
    private let revision = Mutex<Int>(0)
    private let bootID = String(UInt32.random(in: .min ... .max), radix: 36)
    /// The encoded inbox for the current revision: GET /inbox is read far more than written.
    private let cachedInbox = Mutex<(revision: Int, body: Data)?>(nil)

    public init(path: String?) throws {
        if let path {
            var configuration = Configuration()
            configuration.busyMode = .timeout(10)
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
            database = try DatabasePool(path: path, configuration: configuration)
        } else {
            database = try DatabaseQueue()
        }
        var migrator = DatabaseMigrator()
        migrator.registerMigration("server.v1") { db in
            try db.create(table: "email") { table in
                table.autoIncrementedPrimaryKey("seq")
                table.column("uid", .text).notNull().unique()
                table.column("from", .text).notNull()
                table.column("to", .text).notNull()
                table.column("subject", .text).notNull()
                table.column("text", .text).notNull()
                table.column("responseToUid", .text).notNull()
                table.column("dateTime", .text).notNull()
            }
            try db.create(table: "idempotency") { table in
                table.primaryKey("key", .text)
                table.column("fingerprint", .text).notNull()
                table.column("state", .text).notNull()  // inFlight | done
                table.column("status", .integer)
                table.column("response", .blob)
            }
        }
        try migrator.migrate(database)
        // A request in flight when the server stopped stored nothing (storing and completing are
        // one transaction): forget it so its retry is processed afresh.
        try database.write { db in try db.execute(sql: "DELETE FROM idempotency WHERE state = 'inFlight'") }
    }

    /// Adds e-mails (from --seed or --generate), replacing ones with the same uid.
    public func load(_ emails: [Email]) throws {
        try database.write { db in
            let statement = try db.makeStatement(sql: """
                INSERT INTO email(uid, "from", "to", subject, text, responseToUid, dateTime) VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(uid) DO UPDATE SET "from" = excluded."from", "to" = excluded."to", subject = excluded.subject,
                  text = excluded.text, responseToUid = excluded.responseToUid, dateTime = excluded.dateTime
                """)
            for email in emails {
                try statement.execute(arguments: [email.uid, email.from, email.to, email.subject, email.text, email.responseToUid, email.dateTime])
            }
        }
        revision.withLock { $0 += 1 }
    }

    public func count() throws -> Int {
        try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM email") ?? 0 }
    }

    public var etag: String { "\"\(bootID)-\(revision.withLock { $0 })\"" }

    /// The inbox document, encoded, in arrival order; cached until the next change.
    public func inboxBody() throws -> (etag: String, body: Data) {
        let current = revision.withLock { $0 }
        if let cached = cachedInbox.withLock({ $0 }), cached.revision == current {
            return ("\"\(bootID)-\(current)\"", cached.body)
        }
        let emails = try database.read { db in
            try Row.fetchAll(db, sql: #"SELECT uid, "from", "to", subject, text, responseToUid, dateTime FROM email ORDER BY seq"#).map {
                Email(uid: $0[0], from: $0[1], to: $0[2], subject: $0[3], text: $0[4], responseToUid: $0[5], dateTime: $0[6])
            }
        }
        let body = try JSONResponse.encoder.encode(InboxDocument(inbox: emails))
        cachedInbox.withLock { $0 = (current, body) }
        return ("\"\(bootID)-\(current)\"", body)
    }

    // MARK: Idempotent submissions

    enum SubmissionStart: Equatable {
        /// A new key: process the request, then call `complete` or `abandon`.
        case proceed
        /// The key was used with the same body: answer exactly as the first time.
        case replay(status: Int, body: Data)
        /// The key's first request is still being handled.
        case inFlight
        /// The key was used with another body.
        case mismatch
    }

    /// Claims `key` for a request whose canonical body is `fingerprint`. Atomic: of many
    /// concurrent requests with one key, exactly one gets `.proceed`.
    func begin(key: String, fingerprint: String) throws -> SubmissionStart {
        try database.write { db in
            if let row = try Row.fetchOne(db, sql: "SELECT fingerprint, state, status, response FROM idempotency WHERE key = ?", arguments: [key]) {
                let storedFingerprint: String = row["fingerprint"]
                if storedFingerprint != fingerprint { return .mismatch }
                if (row["state"] as String) == "inFlight" { return .inFlight }
                return .replay(status: row["status"], body: row["response"])
            }
            try db.execute(sql: "INSERT INTO idempotency(key, fingerprint, state) VALUES (?, ?, 'inFlight')", arguments: [key, fingerprint])
            return .proceed
        }
    }

    /// Stores the message and the answer for its key in one transaction; returns the stored e-mail
    /// and the encoded answer.
    func complete(key: String, makeEmail: (_ uid: String) -> Email) throws -> (Email, Data) {
        let result = try database.write { db -> (Email, Data) in
            let next = (try Int.fetchOne(db, sql: "SELECT COALESCE(MAX(seq), 0) + 1 FROM email") ?? 1)
            var uid = "m\(next)"
            while try Bool.fetchOne(db, sql: "SELECT EXISTS(SELECT 1 FROM email WHERE uid = ?)", arguments: [uid]) ?? false {
                uid += "x"  // a seeded uid took the name: stay unique
            }
            let email = makeEmail(uid)
            try db.execute(
                sql: #"INSERT INTO email(uid, "from", "to", subject, text, responseToUid, dateTime) VALUES (?, ?, ?, ?, ?, ?, ?)"#,
                arguments: [email.uid, email.from, email.to, email.subject, email.text, email.responseToUid, email.dateTime])
            let body = try JSONResponse.encoder.encode(MessageAccepted(uid: email.uid, dateTime: email.dateTime, message: email, idempotencyKey: key))
            try db.execute(sql: "UPDATE idempotency SET state = 'done', status = 201, response = ? WHERE key = ?", arguments: [body, key])
            return (email, body)
        }
        revision.withLock { $0 += 1 }
        return result
    }

    /// Releases a key whose request failed before anything was stored.
    func abandon(key: String) {
        _ = try? database.write { db in try db.execute(sql: "DELETE FROM idempotency WHERE key = ? AND state = 'inFlight'", arguments: [key]) }
    }
}
