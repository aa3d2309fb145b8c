import ConnCore
import GRDB

/// The table of `conn get`'s copies: one row per URL, written in one transaction (old or new,
/// never half), the least recently used evicted past `cacheLimit`.
public enum HTTPCacheMigrations {
    public static let all: [DatabaseMigration] = [
        DatabaseMigration("cache.v1.create") { db in
            try db.create(table: "httpCache") { table in
                table.primaryKey("url", .text)
                table.column("origin", .text).notNull().indexed()
                table.column("status", .integer).notNull()
                /// JSON: ETag, Last-Modified, Content-Type, Cache-Control, as the server sent them.
                table.column("headers", .text).notNull()
                table.column("body", .blob).notNull()
                table.column("bytes", .integer).notNull()
                table.column("fetchedAt", .double).notNull()
                table.column("lastUsedAt", .double).notNull().indexed()
            }
        },
    ]
}
