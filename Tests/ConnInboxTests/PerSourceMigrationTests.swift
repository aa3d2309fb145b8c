import ConnCore
import ConnTestSupport
import Foundation
import GRDB
import Testing

@testable import ConnInbox

/// A cache written before conn kept a copy per inbox opens with its messages, as the copy of the
/// inbox its meta names; one whose source was not recorded is read until the next fetch; and a
/// conn killed while migrating leaves the old schema or the new one, never half.
@Suite("inbox cache: migration to one copy per source")
struct PerSourceMigrationTests {
    static let inboxURL = "https://api.example.com/inbox"

    @Test("a cache of each older schema becomes the copy of the inbox its meta names, with its ETag and time", arguments: [2, 3, 4])
    func olderSchemasKeepTheirCopy(version: Int) throws {
        let older = try OlderInboxCache(version: version, raw: OlderInboxCache.record, source: Self.inboxURL)
        let cache = InboxCache(database: older.database)
        let source = try #require(try cache.source(of: "https://API.example.com:443/inbox/"))
        #expect(source.requested == Self.inboxURL && source.fetchedAt == Date(timeIntervalSince1970: 1_795_000_000))
        #expect(try cache.message(uid: "1", inboxAt: Self.inboxURL)?.subject == "kept")
        #expect(try cache.sourceToRead(configured: URL(string: Self.inboxURL))?.id == source.id)
        // The old keys are gone from meta: the copy's table is the one truth.
        #expect(try older.database.metaValue("inbox.source") == nil)
    }

    @Test("a cache whose source was not recorded is read, said to be of an unknown source, and replaced by the next fetch")
    func unknownSourceUntilTheNextFetch() throws {
        let older = try OlderInboxCache(version: 4, raw: OlderInboxCache.record, source: nil)
        let cache = InboxCache(database: older.database)
        let unknown = try #require(try cache.sourceToRead(configured: URL(string: Self.inboxURL)))
        #expect(unknown.isUnknown && unknown.requested == nil)
        let records = try InboxDocumentReader.read(Data(#"{"inbox":[{"uid":"2","subject":"new"}]}"#.utf8), source: "b")
        _ = try cache.store(records, etag: nil, requested: "https://b.example/inbox", source: "https://b.example/inbox", at: Date())
        #expect(try cache.sources().map(\.key) == ["https://b.example/inbox"])
        #expect(try cache.sourceToRead(configured: URL(string: Self.inboxURL)) == nil)
        let left = try older.database.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM inboxMessage WHERE uid = '1'") }
        #expect(left == 0)
    }

    @Test("URLs that differ by host case, default port, trailing slash or %7E are one copy; http and https are two")
    func oneCopyPerResource() throws {
        let directory = try TemporaryDirectory()
        let cache = InboxCache(database: try LocalDatabase(path: directory.path + "/conn.sqlite", migrations: InboxMigrations.all))
        let records = try InboxDocumentReader.read(Data(#"{"inbox":[{"uid":"1","subject":"one"}]}"#.utf8), source: "s")
        for url in ["https://Mail.Example.com/~ann/inbox", "https://mail.example.com:443/%7Eann/inbox/", "HTTPS://mail.example.com/%7eann/inbox"] {
            _ = try cache.store(records, etag: nil, requested: url, source: url, at: Date())
        }
        #expect(try cache.sources().count == 1)
        _ = try cache.store(records, etag: nil, requested: "http://mail.example.com/~ann/inbox", source: "x", at: Date())
        _ = try cache.store(records, etag: nil, requested: "https://mail.example.com:8443/~ann/inbox", source: "x", at: Date())
        #expect(try cache.sources().count == 3)
    }

    /// A v4 cache of `count` messages from `source`, large enough that migrating it takes a while.
    static func largeOlderCache(at path: String, count: Int) throws {
        let old = try LocalDatabase(path: path, migrations: Array(InboxMigrations.all.prefix(4)))
        try old.writer.write { db in
            try db.execute(sql: """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                INSERT INTO inboxMessage(uid, responseToUid, parsedTime, arrival, sortKey, threadRoot, depth, flags, raw, rawHash, fetchedAt)
                SELECT 'u' || i, '', i, i, i, 'u' || i, 0, '',
                       '{"uid":"u' || i || '","from":"a@x","to":"b@x","subject":"s","text":"' || hex(randomblob(200)) || '","responseToUid":"","dateTime":"Today"}',
                       0, 5 FROM n
                """, arguments: [count])
            try db.execute(sql: """
                INSERT INTO inboxConversation(rootUid, subject, participants, messageCount, lastSortKey, lastDateTime, snippet, missingParent)
                SELECT uid, 's', 'a@x, b@x', 1, sortKey, 'Today', '', 0 FROM inboxMessage
                """)
            try LocalDatabase.setMetaValue(db, "inbox.source", inboxURL)
        }
    }

    /// What a database file holds after a conn was killed: the old schema whole, or the new.
    enum Schema: Equatable { case old, new }

    static func schema(at path: String, count: Int) throws -> Schema {
        let queue = try DatabaseQueue(path: path)
        return try queue.read { db in
            let migrated = try Bool.fetchOne(db, sql: "SELECT EXISTS(SELECT 1 FROM grdb_migrations WHERE identifier = 'inbox.v5.perSource')") ?? false
            let columns = try db.columns(in: "inboxMessage").map(\.name)
            let messages = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM inboxMessage")
            let conversations = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM inboxConversation")
            #expect(messages == count && conversations == count, "a half-migrated cache: \(messages ?? -1) messages, \(conversations ?? -1) conversations")
            if migrated {
                let tables = (try db.tableExists("inboxSource"), try db.tableExists("inboxDuplicate"))
                #expect(columns.contains("sourceId") && tables.0 && tables.1)
                #expect(try String.fetchOne(db, sql: "SELECT inboxKey FROM inboxSource") == inboxURL)
                #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM inboxMessage WHERE sourceId = 1") == count)
                return .new
            }
            let sourceTable = try db.tableExists("inboxSource")
            #expect(!columns.contains("sourceId") && !sourceTable, "the old schema, changed in part")
            #expect(try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'inbox.source'") == inboxURL)
            return .old
        }
    }

    @Test("conn killed with SIGKILL while it migrates a large cache: the old schema or the new, never half, and the next conn reads it all")
    func killedMidMigration() async throws {
        let count = 60_000
        let template = try TemporaryDirectory()
        try Self.largeOlderCache(at: template.path + "/conn.sqlite", count: count)
        /// One kill on a fresh copy of the older cache, once `beforeKill` returns; the schema
        /// the kill left, which must be whole; then the next conn migrates (or has) and lists it all.
        func killOnce(_ beforeKill: (String) async throws -> Void) async throws -> Schema {
            let home = try TemporaryDirectory()
            let data = home.path + "/data/conn"
            try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: template.path + "/conn.sqlite", toPath: data + "/conn.sqlite")
            let process = try SpawnedProcess(ConnProcess.connPath, ["inbox", "list", "--server", Self.inboxURL.replacingOccurrences(of: "/inbox", with: "")],
                                             environment: home.environment)
            try await beforeKill(data + "/conn.sqlite")
            process.signal(SIGKILL)
            await process.exited()
            let left = try Self.schema(at: data + "/conn.sqlite", count: count)
            let listed = try await home.conn(["inbox", "list", "--json", "--limit", "1"], server: URL(string: "https://api.example.com")!)
            #expect(listed.exitCode == 0, "\(listed.standardError)")
            #expect((try listed.json()["total"] as? Int) == count)
            #expect(try Self.schema(at: data + "/conn.sqlite", count: count) == .new)
            return left
        }
        // Kills made to land inside the migration's transaction: once it has written 64 KiB to
        // the WAL (nothing else on this path writes) — then the old schema must be left whole.
        // A kill that still found it committed (a fast machine) proves nothing; one must not.
        var landedInside = 0
        for _ in 0..<3 {
            var writing = false
            let left = try await killOnce { database in
                writing = await poll(for: 20, every: .milliseconds(1)) {
                    ((try? FileManager.default.attributesOfItem(atPath: database + "-wal"))?[.size] as? Int ?? 0) > 65_536 ? true : nil
                } ?? false
            }
            if writing, left == .old { landedInside += 1 }
        }
        #expect(landedInside > 0, "no kill landed inside the migration's transaction")
        // Kills at increasing delays, across the rest of its course: whatever each hits, what it
        // leaves is whole (checked in killOnce).
        for delay in [50, 150, 300, 600, 1_200] {
            _ = try await killOnce { _ in try await Task.sleep(for: .milliseconds(delay)) }
        }
    }
}
