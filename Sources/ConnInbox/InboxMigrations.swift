import ConnCore
import Foundation
import GRDB

/// The inbox cache's tables. Threads are computed at fetch time and stored, so listing stays a
/// query however large the cache grows.
public enum InboxMigrations {
    public static let all: [DatabaseMigration] = [
        DatabaseMigration("inbox.v1.create") { db in
            try db.create(table: "inboxMessage") { table in
                table.primaryKey("uid", .text)
                table.column("fromAddress", .text).notNull()
                table.column("toAddress", .text).notNull()
                table.column("subject", .text).notNull()
                table.column("text", .text).notNull()
                table.column("responseToUid", .text).notNull()
                table.column("dateTime", .text).notNull()
                /// The parsed dateTime (seconds since the epoch), when it could be parsed.
                table.column("parsedTime", .double)
                /// Position in the order messages were first seen.
                table.column("arrival", .integer).notNull()
                /// Sort position: parsed time where known, else after the last earlier-arrived dated message.
                table.column("sortKey", .double).notNull()
                table.column("threadRoot", .text).notNull().indexed()
                table.column("depth", .integer).notNull()
                table.column("flags", .text).notNull().defaults(to: "")
                table.column("raw", .text).notNull()
                table.column("fetchedAt", .double).notNull()
            }
            try db.create(table: "inboxConversation") { table in
                table.primaryKey("rootUid", .text)
                table.column("subject", .text).notNull()
                table.column("participants", .text).notNull()
                table.column("messageCount", .integer).notNull()
                table.column("lastSortKey", .double).notNull().indexed()
                table.column("lastDateTime", .text).notNull()
                table.column("snippet", .text).notNull()
                table.column("missingParent", .boolean).notNull()
            }
        },
        // The message's text fields are read from its raw JSON instead of being stored twice:
        // half the bytes a fetch writes (a 100,000-message fetch wrote 112 MB, twice, through
        // the WAL). Generated columns keep every query's column names.
        DatabaseMigration("inbox.v2.fieldsFromRaw") { db in
            try db.create(table: "inboxMessageV2") { table in
                table.primaryKey("uid", .text)
                /// Stored, not generated: every fetch reads it for every message to rethread.
                table.column("responseToUid", .text).notNull()
                for (column, key) in [("fromAddress", "from"), ("toAddress", "to"), ("subject", "subject"), ("text", "text"), ("dateTime", "dateTime")] {
                    table.column(column, .text).generatedAs(sql: "COALESCE(json_extract(raw, '$.\(key)'), '')")
                }
                table.column("parsedTime", .double)
                table.column("arrival", .integer).notNull()
                table.column("sortKey", .double).notNull()
                table.column("threadRoot", .text).notNull()
                table.column("depth", .integer).notNull()
                table.column("flags", .text).notNull().defaults(to: "")
                /// The record as received (unknown fields included).
                table.column("raw", .text).notNull()
                table.column("fetchedAt", .double).notNull()
            }
            try db.execute(sql: """
                INSERT INTO inboxMessageV2(uid, responseToUid, parsedTime, arrival, sortKey, threadRoot, depth, flags, raw, fetchedAt)
                SELECT uid, responseToUid, parsedTime, arrival, sortKey, threadRoot, depth, flags, raw, fetchedAt FROM inboxMessage
                """)
            try db.drop(table: "inboxMessage")
            try db.rename(table: "inboxMessageV2", to: "inboxMessage")
            try db.create(index: "inboxMessage_on_threadRoot", on: "inboxMessage", columns: ["threadRoot"])
        },
        // A re-fetch compares each record with its cached copy: by a hash of the raw text,
        // so it loads 8 bytes per message instead of every record (43 MB for 100,000).
        DatabaseMigration("inbox.v3.rawHash") { db in
            try db.alter(table: "inboxMessage") { table in
                table.add(column: "rawHash", .integer).notNull().defaults(to: 0)
            }
            // Filled in by v4, which computes every hash with today's function.
        },
        // RecordHash changed from FNV-1a, a byte per step, to 16 bytes per step: every cached
        // hash is computed again, or the next fetch would take every record for an update.
        DatabaseMigration("inbox.v4.recordHashByWords") { db in
            try recomputeRecordHashes(db)
        },
        // One copy per inbox resource: fetching server B keeps A's copy. Every row belongs to a
        // source; a cache from before is the one its meta names (or of a source unknown, shown
        // until the next fetch). Copies of a uid that a document repeats are kept beside the
        // message instead of being dropped. One migration, so one transaction: a conn killed
        // while it runs leaves the old schema or the new one.
        DatabaseMigration("inbox.v5.perSource") { db in
            try perSource(db)
        },
        // What each fetch keeps of its copy: how many conversations it holds, so `inbox list`
        // says "1–20 of N" without counting a million rows (26 ms) each time; and the digest of
        // the document stored with what its summary said, so a re-fetch of the same bytes skips
        // the merge. NULL (a copy not fetched since) is counted, or merged, as before.
        DatabaseMigration("inbox.v6.copySummary") { db in
            try db.alter(table: "inboxSource") { table in
                table.add(column: "conversationCount", .integer)
                table.add(column: "documentDigest", .integer)
                table.add(column: "documentSummary", .text)
            }
        },
    ]

    static func perSource(_ db: Database) throws {
        try db.create(table: "inboxSource") { table in
            table.autoIncrementedPrimaryKey("id")
            /// ResourceKey of the inbox URL asked for; empty for a cache whose source is unknown.
            table.column("inboxKey", .text).notNull().unique()
            /// The inbox URL as asked for, and where the answer came from (after redirects).
            table.column("requested", .text)
            table.column("source", .text)
            table.column("etag", .text)
            table.column("fetchedAt", .double)
        }
        let held = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM inboxMessage") ?? 0
        let requested = try LocalDatabase.metaValue(db, "inbox.requested") ?? LocalDatabase.metaValue(db, "inbox.source")
        if held > 0 || requested != nil {
            try db.execute(sql: "INSERT INTO inboxSource(id, inboxKey, requested, source, etag, fetchedAt) VALUES (1, ?, ?, ?, ?, ?)", arguments: [
                requested.flatMap(URL.init(string:)).map(ResourceKey.of) ?? "", requested,
                try LocalDatabase.metaValue(db, "inbox.source"), try LocalDatabase.metaValue(db, "inbox.etag"),
                try LocalDatabase.metaValue(db, "inbox.fetchedAt").flatMap(Double.init),
            ])
        }
        try db.execute(sql: "DELETE FROM meta WHERE key IN ('inbox.requested', 'inbox.source', 'inbox.etag', 'inbox.fetchedAt')")

        try db.create(table: "inboxMessageV5") { table in
            table.column("sourceId", .integer).notNull()
            table.column("uid", .text).notNull()
            table.primaryKey(["sourceId", "uid"])
            table.column("responseToUid", .text).notNull()
            for (column, key) in messageFields {
                table.column(column, .text).generatedAs(sql: "COALESCE(json_extract(raw, '$.\(key)'), '')")
            }
            table.column("parsedTime", .double)
            table.column("arrival", .integer).notNull()
            table.column("sortKey", .double).notNull()
            table.column("threadRoot", .text).notNull()
            table.column("depth", .integer).notNull()
            table.column("flags", .text).notNull().defaults(to: "")
            table.column("raw", .text).notNull()
            table.column("rawHash", .integer).notNull().defaults(to: 0)
            table.column("fetchedAt", .double).notNull()
        }
        try db.execute(sql: """
            INSERT INTO inboxMessageV5(sourceId, uid, responseToUid, parsedTime, arrival, sortKey, threadRoot, depth, flags, raw, rawHash, fetchedAt)
            SELECT 1, uid, responseToUid, parsedTime, arrival, sortKey, threadRoot, depth, flags, raw, rawHash, fetchedAt FROM inboxMessage
            """)
        try db.drop(table: "inboxMessage")
        try db.rename(table: "inboxMessageV5", to: "inboxMessage")
        // In the thread's date order, so reading a conversation of 100,000 needs no sort (SQLite's
        // sorter held every row, 15 MB of them).
        try db.create(index: "inboxMessage_on_source_thread_order", on: "inboxMessage", columns: ["sourceId", "threadRoot", "sortKey", "arrival"])

        try db.create(table: "inboxConversationV5") { table in
            table.column("sourceId", .integer).notNull()
            table.column("rootUid", .text).notNull()
            table.primaryKey(["sourceId", "rootUid"])
            table.column("subject", .text).notNull()
            table.column("participants", .text).notNull()
            table.column("messageCount", .integer).notNull()
            table.column("lastSortKey", .double).notNull()
            table.column("lastDateTime", .text).notNull()
            table.column("snippet", .text).notNull()
            table.column("missingParent", .boolean).notNull()
        }
        try db.execute(sql: """
            INSERT INTO inboxConversationV5(sourceId, rootUid, subject, participants, messageCount, lastSortKey, lastDateTime, snippet, missingParent)
            SELECT 1, rootUid, subject, participants, messageCount, lastSortKey, lastDateTime, snippet, missingParent FROM inboxConversation
            """)
        try db.drop(table: "inboxConversation")
        try db.rename(table: "inboxConversationV5", to: "inboxConversation")
        try db.create(index: "inboxConversation_on_source_lastSortKey", on: "inboxConversation", columns: ["sourceId", "lastSortKey"])

        // The later records of a uid the document had already given: the first is the message
        // (replies thread to it), these are kept beside it, in the document's order.
        try db.create(table: "inboxDuplicate") { table in
            table.column("sourceId", .integer).notNull()
            table.column("uid", .text).notNull()
            /// 2 for the second record with this uid, 3 for the third…
            table.column("copy", .integer).notNull()
            table.primaryKey(["sourceId", "uid", "copy"])
            for (column, key) in messageFields {
                table.column(column, .text).generatedAs(sql: "COALESCE(json_extract(raw, '$.\(key)'), '')")
            }
            table.column("raw", .text).notNull()
            table.column("rawHash", .integer).notNull()
        }
    }

    /// A message's text fields, read from its raw record: (column, JSON key).
    static let messageFields = [("fromAddress", "from"), ("toAddress", "to"), ("subject", "subject"), ("text", "text"), ("dateTime", "dateTime")]

    /// Sets every cached message's rawHash from its raw text with today's RecordHash.
    static func recomputeRecordHashes(_ db: Database) throws {
        let hash = DatabaseFunction("connRecordHash", argumentCount: 1, pure: true) { values in
            String.fromDatabaseValue(values[0]).map(RecordHash.of)
        }
        db.add(function: hash)
        defer { db.remove(function: hash) }
        try db.execute(sql: "UPDATE inboxMessage SET rawHash = connRecordHash(raw)")
    }
}
