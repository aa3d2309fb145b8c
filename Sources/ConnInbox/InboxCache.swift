import ConnCore
import ConnProtocol
import Foundation
import GRDB

/// The local copy of the inbox: written in one transaction per fetch, read offline.
///
/// The cache holds one inbox: the one at the URL that was asked for (`inbox.requested`; the
/// server may have redirected within its origin, and `inbox.source` is where the inbox really
/// came from). Fetching another inbox URL — another server, or a moved resource — replaces the
/// cache instead of merging two servers' uids, and an ETag is sent only to the URL it came from.
public struct InboxCache: Sendable {
    public let database: LocalDatabase

    public init(database: LocalDatabase) { self.database = database }

    public struct StoreSummary: Sendable, Equatable, Encodable {
        public var fetched: Int
        public var new: Int
        public var updated: Int
        public var unchanged: Int
    }

    static let etagKey = "inbox.etag", fetchedAtKey = "inbox.fetchedAt", sourceKey = "inbox.source", requestedKey = "inbox.requested"

    /// The inbox URL the cache holds.
    public func requestedURL() throws -> String? {
        try database.writer.read { db in try Self.requestedURL(db) }
    }

    /// Caches written before `inbox.requested` existed fall back to their source.
    private static func requestedURL(_ db: Database) throws -> String? {
        try LocalDatabase.metaValue(db, requestedKey) ?? LocalDatabase.metaValue(db, sourceKey)
    }

    /// The ETag to send with a request for `url`: only one that came from that very inbox.
    public func etag(for url: String) -> String? {
        guard (try? requestedURL()) == url else { return nil }
        return try? database.metaValue(Self.etagKey)
    }

    /// When and from where the cache was last filled, if ever.
    /// A cached message, for what quotes it (a reply's editor); nil when the cache lacks it.
    public func message(uid: String) throws -> (from: String, subject: String, text: String)? {
        try database.writer.read { db in
            try Row.fetchOne(db, sql: "SELECT fromAddress, subject, text FROM inboxMessage WHERE uid = ?", arguments: [uid])
                .map { (from: $0["fromAddress"], subject: $0["subject"], text: $0["text"]) }
        }
    }

    public func lastFetch() throws -> (at: Date, source: String)? {
        guard let at = try database.metaValue(Self.fetchedAtKey).flatMap(Double.init), let source = try database.metaValue(Self.sourceKey) else { return nil }
        return (Date(timeIntervalSince1970: at), source)
    }

    /// Marks a conditional fetch answered 304: the cache is current as of now.
    public func touch(source: String, at now: Date) throws {
        try database.writer.write { db in try Self.setMeta(db, [Self.fetchedAtKey: String(now.timeIntervalSince1970), Self.sourceKey: source]) }
    }

    /// Upserts the records by uid, rethreads (a late parent re-links its replies), updates the
    /// conversations and records the ETag — all in one transaction, so a reader never sees half
    /// a fetch.
    /// `requested` is the inbox URL asked for, `source` where the answer came from. A cache of
    /// another inbox URL is emptied first, in the same transaction.
    public func store(_ records: [InboxDocumentReader.Record], etag: String?, requested: String, source: String, at now: Date) throws -> StoreSummary {
        try store(InboxDocument(records: records), etag: etag, requested: requested, source: source, at: now)
    }

    public func store(_ document: InboxDocument, etag: String?, requested: String, source: String, at now: Date) throws -> StoreSummary {
        try database.writer.write { db in
            if let held = try Self.requestedURL(db), held != requested {
                try db.execute(sql: "DELETE FROM inboxMessage")
                try db.execute(sql: "DELETE FROM inboxConversation")
                try db.execute(sql: "DELETE FROM meta WHERE key = ?", arguments: [Self.etagKey])
            }
            var merge = try InboxMerge(loadingFrom: db)
            let summary = merge.apply(document, at: now)
            try merge.write(to: db, at: now)
            var meta = [Self.fetchedAtKey: String(now.timeIntervalSince1970), Self.sourceKey: source, Self.requestedKey: requested]
            if let etag { meta[Self.etagKey] = etag }
            try Self.setMeta(db, meta)
            if etag == nil { try db.execute(sql: "DELETE FROM meta WHERE key = ?", arguments: [Self.etagKey]) }
            return summary
        }
    }

    private static func setMeta(_ db: Database, _ values: [String: String]) throws {
        for (key, value) in values { try LocalDatabase.setMetaValue(db, key, value) }
    }
}
