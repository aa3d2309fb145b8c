import Foundation
import GRDB

/// The one SQLite database conn keeps (outbox, inbox cache, last clock offset…).
///
/// Opened for durability first: WAL, `synchronous=FULL` (a committed message survives power
/// loss), a busy timeout so concurrent conn processes wait instead of failing with "database is
/// locked", and IMMEDIATE write transactions (GRDB's default for a pool) so two writers never
/// deadlock on a lock upgrade.
public final class LocalDatabase: Sendable {
    public let writer: DatabasePool
    public let path: String

    /// The migrations every database gets, before the modules' own.
    public static let coreMigrations: [DatabaseMigration] = [
        DatabaseMigration("core.v1.meta") { db in
            try db.create(table: "meta") { table in
                table.primaryKey("key", .text)
                table.column("value", .text).notNull()
                table.column("updatedAt", .datetime).notNull()
            }
        },
    ]

    public init(path: String, migrations: [DatabaseMigration]) throws {
        self.path = path
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        // GRDB 7 opens DatabasePool write transactions as IMMEDIATE on its own.
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        do {
            try ConnPaths.ensureDirectory((path as NSString).deletingLastPathComponent)
            var migrator = DatabaseMigrator()
            for migration in Self.coreMigrations + migrations {
                migrator.registerMigration(migration.identifier, migrate: migration.migrate)
            }
            // Two processes opening a new database at once would both see a migration as not
            // applied and both run it ("table already exists"), and switching to WAL needs the
            // database to itself. An advisory lock around open-and-migrate serialises them; the
            // kernel drops it when a process dies, so it can never go stale.
            writer = try Self.withOpenLock(path: path + ".lock") {
                let pool = try DatabasePool(path: path, configuration: configuration)
                try migrator.migrate(pool)
                return pool
            }
        } catch let error as ConnError {
            throw error
        } catch {
            throw ConnError.unavailable(
                "databaseUnavailable", "cannot open the local database \(path): \(error)",
                hint: "Check the file's permissions and free disk space.")
        }
    }

    private static func withOpenLock<Result>(path: String, _ body: () throws -> Result) throws -> Result {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw ConnError.unavailable(
                "databaseUnavailable", "cannot create the lock file \(path): \(String(cString: strerror(errno)))",
                hint: "Check the directory's permissions and free disk space.")
        }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 && errno == EINTR {}
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    /// Reads a value of the key-value `meta` table.
    public func metaValue(_ key: String) throws -> String? {
        try writer.read { db in try Self.metaValue(db, key) }
    }

    /// Writes a value of the key-value `meta` table, durably.
    public func setMetaValue(_ key: String, _ value: String) throws {
        try writer.write { db in try Self.setMetaValue(db, key, value) }
    }

    /// Reads a `meta` value inside a caller's transaction.
    public static func metaValue(_ db: Database, _ key: String) throws -> String? {
        try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key])
    }

    /// Writes a `meta` value inside a caller's transaction, so it commits with the rest.
    public static func setMetaValue(_ db: Database, _ key: String, _ value: String) throws {
        try db.execute(
            sql: "INSERT INTO meta(key, value, updatedAt) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, updatedAt = excluded.updatedAt",
            arguments: [key, value, Date()])
    }
}
