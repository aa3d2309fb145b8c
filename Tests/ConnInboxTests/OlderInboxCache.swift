import ConnCore
import ConnTestSupport
import GRDB

@testable import ConnInbox

/// A cache written by an older conn — its schema migrated up to `version` only, holding one
/// message whose record is `raw` — then opened as today's conn opens it, so every later
/// migration runs over it.
struct OlderInboxCache {
    /// A record as a server sends it.
    static let record = #"{"uid":"1","from":"a@x","to":"b@x","subject":"kept","text":"body","responseToUid":"","dateTime":"Today"}"#
    let directory: TemporaryDirectory
    let database: LocalDatabase

    /// `rawHash`: the hash the older conn stored (its schema must have the column); nil for a
    /// schema without it. `source`: the inbox URL its meta names (nil: none, a source unknown).
    init(version: Int, raw: String, rawHash: Int64? = nil, source: String? = "s") throws {
        directory = try TemporaryDirectory()
        let path = directory.path + "/conn.sqlite"
        do {
            let old = try LocalDatabase(path: path, migrations: Array(InboxMigrations.all.prefix(version)))
            try old.writer.write { db in
                try db.execute(sql: """
                    INSERT INTO inboxMessage(uid, responseToUid, parsedTime, arrival, sortKey, threadRoot, depth, flags, raw, fetchedAt)
                    VALUES ('1', '', 5, 1, 5, '1', 0, '', ?, 5)
                    """, arguments: [raw])
                if let rawHash { try db.execute(sql: "UPDATE inboxMessage SET rawHash = ? WHERE uid = '1'", arguments: [rawHash]) }
                // As every older conn recorded it: where the cache came from, when.
                if let source {
                    try LocalDatabase.setMetaValue(db, "inbox.source", source)
                    try LocalDatabase.setMetaValue(db, "inbox.fetchedAt", "1795000000")
                }
            }
        }
        database = try LocalDatabase(path: path, migrations: InboxMigrations.all)
    }

    /// The message's stored hash, after the migrations.
    func storedHash() throws -> Int64? {
        try database.writer.read { db in try Int64.fetchOne(db, sql: "SELECT rawHash FROM inboxMessage WHERE uid = '1'") }
    }
}
