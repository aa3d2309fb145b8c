import ConnCore
import ConnProtocol
import Foundation
import GRDB

/// The local copy of the inbox: written in one transaction per fetch, read offline.
public struct InboxCache: Sendable {
    public let database: LocalDatabase

    public init(database: LocalDatabase) { self.database = database }

    public struct StoreSummary: Sendable, Equatable, Encodable {
        public var fetched: Int
        public var new: Int
        public var updated: Int
        public var unchanged: Int
    }

    static let etagKey = "inbox.etag", fetchedAtKey = "inbox.fetchedAt", sourceKey = "inbox.source"

    public var etag: String? { try? database.metaValue(Self.etagKey) }

    /// When and from where the cache was last filled, if ever.
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
    public func store(_ records: [InboxDocumentReader.Record], etag: String?, source: String, at now: Date) throws -> StoreSummary {
        try database.writer.write { db in
            var merge = try InboxMerge(loadingFrom: db)
            let summary = merge.apply(records, at: now)
            try merge.write(to: db, at: now)
            var meta = [Self.fetchedAtKey: String(now.timeIntervalSince1970), Self.sourceKey: source]
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
