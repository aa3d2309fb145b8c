import ConnCore
import ConnProtocol
import Foundation
import GRDB

/// The local copies of inboxes: one per inbox resource (`ResourceKey` of the URL asked for),
/// each written in one transaction per fetch and read offline. Fetching server B's inbox leaves
/// A's copy as it was; an ETag is sent only to the inbox it came from.
public struct InboxCache: Sendable {
    public let database: LocalDatabase

    public init(database: LocalDatabase) { self.database = database }

    public struct StoreSummary: Sendable, Equatable, Encodable {
        public var fetched: Int
        public var new: Int
        public var updated: Int
        public var unchanged: Int
        /// Records whose uid an earlier record of the same document had: kept, flagged.
        public var duplicates: Int = 0
        /// Those uids (the first few), for the summary's text.
        public var duplicateUids: [String] = []
    }

    /// One cached copy: whose inbox it is and when it was fetched.
    public struct Source: Sendable, Equatable {
        public var id: Int64
        /// ResourceKey of the inbox URL; empty for a copy written before conn kept one per source.
        public var key: String
        /// The inbox URL asked for, and where the answer came from (after same-origin redirects).
        public var requested: String?
        public var source: String?
        public var etag: String?
        public var fetchedAt: Date?

        /// A copy from an older conn whose server it did not record.
        public var isUnknown: Bool { key.isEmpty }

        /// What a person is told the copy is of.
        public var name: String { source ?? requested ?? "an inbox of unknown source" }

        init(row: Row) {
            id = row["id"]
            key = row["inboxKey"]
            requested = row["requested"]
            source = row["source"]
            etag = row["etag"]
            fetchedAt = (row["fetchedAt"] as Double?).map(Date.init(timeIntervalSince1970:))
        }
    }

    /// The key of an inbox URL as asked for.
    static func key(of requested: String) -> String {
        URL(string: requested).map(ResourceKey.of) ?? requested
    }

    /// The cached copy of the inbox at `url`, if there is one.
    public func source(of url: String) throws -> Source? {
        try database.writer.read { db in try Self.source(db, key: Self.key(of: url)) }
    }

    static func source(_ db: Database, key: String) throws -> Source? {
        try Row.fetchOne(db, sql: "SELECT * FROM inboxSource WHERE inboxKey = ?", arguments: [key]).map(Source.init(row:))
    }

    /// The copies, the latest fetched first.
    private static let latestFirst = "SELECT * FROM inboxSource ORDER BY fetchedAt DESC, id DESC"

    /// Every cached copy, the latest fetched first.
    public func sources() throws -> [Source] {
        try database.writer.read { db in try Row.fetchAll(db, sql: Self.latestFirst).map(Source.init(row:)) }
    }

    /// The copy to read for the inbox at `configured` (`InboxCopyRule`); nil when there is none.
    public func sourceToRead(configured: URL?) throws -> Source? {
        try database.writer.read { db in
            let (sql, arguments) = InboxCopyRule.sourceIdQuery(configured: configured)
            return try Row.fetchOne(db, sql: "SELECT * FROM inboxSource WHERE id = (\(sql))", arguments: arguments).map(Source.init(row:))
        }
    }

    /// The ETag to send with a request for `url`: only one that came from that very inbox.
    public func etag(for url: String) -> String? {
        (try? source(of: url))?.etag
    }

    /// A cached message of the inbox at `url`, for what quotes it (a reply's editor); nil when
    /// that copy lacks it.
    public func message(uid: String, inboxAt url: String) throws -> (from: String, subject: String, text: String)? {
        try database.writer.read { db in
            try Row.fetchOne(db, sql: """
                SELECT fromAddress, subject, text FROM inboxMessage
                WHERE uid = ? AND sourceId = (SELECT id FROM inboxSource WHERE inboxKey = ?)
                """, arguments: [uid, Self.key(of: url)])
                .map { (from: $0["fromAddress"], subject: $0["subject"], text: $0["text"]) }
        }
    }

    /// How many messages the copy of the inbox at `url` holds (0 before its first fetch).
    public func messageCount(inboxAt url: String) throws -> Int {
        try database.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM inboxMessage WHERE sourceId = (SELECT id FROM inboxSource WHERE inboxKey = ?)",
                             arguments: [Self.key(of: url)]) ?? 0
        }
    }

    /// How many messages the copy `sourceId` holds.
    public func messageCount(sourceId: Int64) throws -> Int {
        try database.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM inboxMessage WHERE sourceId = ?", arguments: [sourceId]) ?? 0
        }
    }

    /// Marks a conditional fetch answered 304: the copy is current as of now.
    public func touch(requested: String, source: String, at now: Date) throws {
        try database.writer.write { db in
            try db.execute(sql: "UPDATE inboxSource SET source = ?, fetchedAt = ? WHERE inboxKey = ?",
                           arguments: [source, now.timeIntervalSince1970, Self.key(of: requested)])
        }
    }

    /// Upserts the records by uid into the copy of the inbox `requested`, rethreads (a late
    /// parent re-links its replies), updates the conversations and records the ETag — all in one
    /// transaction, so a reader never sees half a fetch. Other inboxes' copies are left alone,
    /// but for one of an unknown source, which a fetch replaces.
    /// `requested` is the inbox URL asked for, `source` where the answer came from.
    public func store(_ records: [InboxDocumentReader.Record], etag: String?, requested: String, source: String, at now: Date) throws -> StoreSummary {
        try store(try InboxDocument(records: records), etag: etag, requested: requested, source: source, at: now)
    }

    public func store(_ document: InboxDocument, etag: String?, requested: String, source: String, at now: Date) throws -> StoreSummary {
        try database.writer.write { db in
            if let unknown = try Self.source(db, key: "") { try Self.remove(unknown.id, db) }
            let key = Self.key(of: requested)
            let sourceId: Int64
            if let held = try Self.source(db, key: key) {
                sourceId = held.id
            } else {
                try db.execute(sql: "INSERT INTO inboxSource(inboxKey) VALUES (?)", arguments: [key])
                sourceId = db.lastInsertedRowID
            }
            try db.execute(sql: "UPDATE inboxSource SET requested = ?, source = ?, etag = ?, fetchedAt = ? WHERE id = ?",
                           arguments: [requested, source, etag, now.timeIntervalSince1970, sourceId])
            // The same bytes as the document stored last (a server that sends no ETag, or
            // --force): nothing changed, and what its fetch counted still holds.
            if let kept = try Self.keptSummary(db, sourceId: sourceId, digest: document.digest) {
                return StoreSummary(fetched: kept.fetched, new: 0, updated: 0, unchanged: kept.fetched - kept.duplicates,
                                    duplicates: kept.duplicates, duplicateUids: kept.duplicateUids)
            }
            var merge = try InboxMerge(loadingFrom: db, sourceId: sourceId)
            let summary = try merge.apply(document, to: db, at: now)
            let changed = !merge.changesNothing
            try merge.write(to: db, at: now)
            let kept = KeptSummary(fetched: summary.fetched, duplicates: summary.duplicates, duplicateUids: summary.duplicateUids)
            try db.execute(sql: """
                UPDATE inboxSource SET documentDigest = ?2, documentSummary = ?3,
                conversationCount = CASE WHEN ?4 OR conversationCount IS NULL
                    THEN (SELECT count(*) FROM inboxConversation WHERE sourceId = ?1) ELSE conversationCount END
                WHERE id = ?1
                """, arguments: [sourceId, document.digest, String(decoding: try JSONEncoder().encode(kept), as: UTF8.self), changed])
            return summary
        }
    }

    /// What a fetch counted of the document it stored, kept with the copy (`documentSummary`).
    struct KeptSummary: Codable {
        var fetched: Int
        var duplicates: Int
        var duplicateUids: [String]
    }

    /// The summary kept with the copy `sourceId` when its document had `digest`; nil when it had
    /// another (or none was kept, or it does not read: the merge then runs as ever).
    private static func keptSummary(_ db: Database, sourceId: Int64, digest: Int64) throws -> KeptSummary? {
        guard let row = try Row.fetchOne(db, sql: "SELECT documentDigest, documentSummary FROM inboxSource WHERE id = ?", arguments: [sourceId]),
            (row[0] as Int64?) == digest, let text = row[1] as String?,
            let kept = try? JSONDecoder().decode(KeptSummary.self, from: Data(text.utf8)),
            kept.fetched >= 0, (0...kept.fetched).contains(kept.duplicates)
        else { return nil }
        return kept
    }

    /// Removes one copy, all of it.
    private static func remove(_ sourceId: Int64, _ db: Database) throws {
        for table in ["inboxMessage", "inboxConversation", "inboxDuplicate"] {
            try db.execute(sql: "DELETE FROM \(table) WHERE sourceId = ?", arguments: [sourceId])
        }
        try db.execute(sql: "DELETE FROM inboxSource WHERE id = ?", arguments: [sourceId])
    }
}
