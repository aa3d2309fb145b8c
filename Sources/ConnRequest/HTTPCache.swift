import ConnCore
import Foundation
import GRDB

/// `conn get`'s copies in the local database. Every change is one transaction: a copy is the
/// old one or the new one, never half of either, whatever kills the process.
public struct HTTPCache: Sendable {
    public let database: LocalDatabase
    /// The most all copies together may hold; the least recently used go first.
    public var limit: Int

    /// The largest copy kept: larger answers are refused (conn get holds a copy whole).
    public static let maxResourceBytes = 32 << 20

    public init(database: LocalDatabase, limit: Int) {
        self.database = database
        self.limit = limit
    }

    public func resource(_ url: String) throws -> CachedResource? {
        try database.writer.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM httpCache WHERE url = ?", arguments: [url]).map(Self.resource(row:))
        }
    }

    /// Keeps `resource` (replacing the copy of its URL), then evicts the least recently used
    /// until all fit in `limit`. Returns the URLs evicted.
    @discardableResult
    public func store(_ resource: CachedResource) throws -> [String] {
        try database.writer.write { db in
            try db.execute(literal: """
                INSERT OR REPLACE INTO httpCache(url, origin, status, headers, body, bytes, fetchedAt, lastUsedAt)
                VALUES (\(resource.url), \(resource.origin), \(resource.status), \(StoredJSON.text(resource.headers)), \(resource.body),
                        \(resource.body.count), \(resource.fetchedAt.timeIntervalSince1970), \(resource.lastUsedAt.timeIntervalSince1970))
                """)
            var total = try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(bytes), 0) FROM httpCache") ?? 0
            var evicted: [String] = []
            guard total > limit else { return evicted }
            for row in try Row.fetchAll(db, sql: "SELECT url, bytes FROM httpCache WHERE url != ? ORDER BY lastUsedAt", arguments: [resource.url]) {
                guard total > limit else { break }
                let url: String = row["url"]
                try db.execute(sql: "DELETE FROM httpCache WHERE url = ?", arguments: [url])
                total -= row["bytes"] as Int
                evicted.append(url)
            }
            return evicted
        }
    }

    /// The server said the copy is still current (304): it counts as fetched now, with the
    /// headers it sent again.
    public func revalidated(_ url: String, headers: [String: String], at now: Date) throws {
        try database.writer.write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT headers FROM httpCache WHERE url = ?", arguments: [url]) else { return }
            let merged = (StoredJSON.value([String: String].self, from: row["headers"]) ?? [:]).merging(headers) { $1 }
            try db.execute(literal: """
                UPDATE httpCache SET headers = \(StoredJSON.text(merged)), fetchedAt = \(now.timeIntervalSince1970), lastUsedAt = \(now.timeIntervalSince1970)
                WHERE url = \(url)
                """)
        }
    }

    /// Marks the copy used now (least recently used goes first).
    public func touch(_ url: String, at now: Date) throws {
        guard !database.isReadOnly else { return }
        try database.writer.write { db in
            try db.execute(literal: "UPDATE httpCache SET lastUsedAt = \(now.timeIntervalSince1970) WHERE url = \(url)")
        }
    }

    @discardableResult
    public func remove(_ urls: [String]) throws -> Int {
        try database.writer.write { db in
            var removed = 0
            for url in urls {
                try db.execute(sql: "DELETE FROM httpCache WHERE url = ?", arguments: [url])
                removed += db.changesCount
            }
            return removed
        }
    }

    @discardableResult
    public func removeAll() throws -> Int {
        try database.writer.write { db in
            try db.execute(sql: "DELETE FROM httpCache")
            return db.changesCount
        }
    }

    /// Every copy, by origin and URL, without its body (read in one query), with its size.
    public func list() throws -> [(resource: CachedResource, bytes: Int)] {
        try database.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT url, origin, status, headers, zeroblob(0) AS body, fetchedAt, lastUsedAt, bytes FROM httpCache ORDER BY origin, url")
                .map { (Self.resource(row: $0), $0["bytes"] as Int) }
        }
    }

    private static func resource(row: Row) -> CachedResource {
        CachedResource(url: row["url"], origin: row["origin"], status: row["status"], headers: StoredJSON.value([String: String].self, from: row["headers"]) ?? [:],
                       body: row["body"] ?? Data(), fetchedAt: Date(timeIntervalSince1970: row["fetchedAt"]),
                       lastUsedAt: Date(timeIntervalSince1970: row["lastUsedAt"]))
    }

}
