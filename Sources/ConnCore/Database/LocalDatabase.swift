import Foundation
import GRDB

/// The one SQLite database conn keeps (outbox, inbox cache, last clock offset…).
///
/// Opened for durability first: WAL, `synchronous=FULL` (a committed message survives power
/// loss), a busy timeout so concurrent conn processes wait instead of failing with "database is
/// locked", and IMMEDIATE write transactions (GRDB 7's default for a writable connection) so two
/// writers never deadlock on a lock upgrade.
///
/// One connection (a DatabaseQueue in WAL mode), not a pool: most commands run one short
/// transaction and end, and a pool's second connection cost every such command 4–5 ms
/// (`conn inbox list` 26.9 → 22.8 ms, `conn outbox list` 24.1 → 19.3 ms, hyperfine, 150 runs).
/// Other processes still read while this one writes: that is WAL's doing, not the pool's.
public final class LocalDatabase: Sendable {
    public let writer: DatabaseQueue
    public let path: String
    /// Opened read-only (the file is not writable by this user): reads work, writes fail with 77.
    public var isReadOnly: Bool { writer.configuration.readonly }

    /// How long a command waits for another process's write before giving up (75).
    public static let busyTimeoutSeconds = 10

    /// The migrations every database gets, before the modules' own.
    public static let coreMigrations: [DatabaseMigration] = [
        DatabaseMigration("core.v1.meta") { db in
            try db.create(table: "meta") { table in
                table.primaryKey("key", .text)
                table.column("value", .text).notNull()
                table.column("updatedAt", .datetime).notNull()
            }
        },
        // An inbox source recorded before URLs with user:password@ were refused kept the password.
        DatabaseMigration("core.v2.redactUserinfo") { db in
            try UserinfoRedaction.redact(db, table: "meta", column: "value", keyColumn: "key")
        },
    ]

    public init(path: String, migrations: [DatabaseMigration]) throws {
        SQLiteSetup.prepare()
        self.path = path
        var configuration = Configuration()
        configuration.busyMode = .timeout(TimeInterval(Self.busyTimeoutSeconds))
        // WAL is switched on below, not by `journalMode = .wal`: GRDB's WAL set-up writes a
        // table and drops it whenever the -wal file is missing, and SQLite deletes that file
        // when the last connection closes, so every command — `outbox list` too — paid a write
        // transaction, its checkpoint at close and four fsyncs. WAL is a property of the file:
        // once set, every later connection uses it, and a reading command now writes nothing.
        do {
            try ConnPaths.ensureDirectory((path as NSString).deletingLastPathComponent)
            var migrator = DatabaseMigrator()
            for migration in Self.coreMigrations + migrations {
                migrator.registerMigration(migration.identifier, migrate: migration.migrate)
            }
            // A database this user may not write (a read-only file, an archived copy): opened
            // read-only, so that reading commands still work; writes then fail with 77.
            if access(path, F_OK) == 0, access(path, W_OK) != 0 {
                writer = try Self.openReadOnly(path: path, migrator: migrator)
                return
            }
            // Two processes opening a new database at once would both see a migration as not
            // applied and both run it ("table already exists"), and switching to WAL needs the
            // database to itself. An advisory lock around open-and-migrate serialises them; the
            // kernel drops it when a process dies, so it can never go stale.
            writer = try Self.withOpenLock(path: path + ".lock") {
                Self.makePrivate(path)
                let queue = try DatabaseQueue(path: path, configuration: configuration)
                // FULL after opening: a committed message survives power loss.
                try queue.writeWithoutTransaction { db in
                    if try String.fetchOne(db, sql: "PRAGMA journal_mode") != "wal" {
                        guard try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") == "wal" else {
                            throw ConnError.unavailable(.databaseUnavailable, "cannot switch the local database \(path) to write-ahead logging",
                                                        hint: "Check that its directory is writable and on a local file system.")
                        }
                    }
                    try db.execute(sql: "PRAGMA synchronous = FULL")
                }
                try migrator.migrate(queue)
                return queue
            }
        } catch let error as ConnError {
            throw error
        } catch {
            if let described = StorageFailure.describe(error, path: path) { throw described }
            throw ConnError.unavailable(
                .databaseUnavailable, "cannot open the local database \(path): \(error)",
                hint: "Check the file's permissions and free disk space.")
        }
    }

    /// Opens an existing database read-only, if its schema is already what this conn expects
    /// (a migration would have to write).
    static func openReadOnly(path: String, migrator: DatabaseMigrator) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(TimeInterval(busyTimeoutSeconds))
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        guard try queue.read({ try migrator.hasCompletedMigrations($0) }) else {
            throw ConnError(code: .databaseReadOnly,
                            message: "the local database \(path) is read-only and needs an upgrade, which writes to it",
                            hint: "Make it writable once (chmod u+w '\(path)'), run any conn command, then protect it again.",
                            exitStatus: .permission)
        }
        return queue
    }

    /// Mail, drafts and the outbox are private whatever the umask or the directory's mode: the
    /// database file is created 0600 before SQLite opens it (SQLite gives its -wal and -shm files
    /// the database's mode), and files an older conn left readable by others are tightened.
    ///
    /// An existing file is never opened here: closing any descriptor of a file drops every POSIX
    /// lock this process holds on it, so an open-and-close beside a live SQLite connection in the
    /// same process (the agent, the REPL) silently broke that connection's locking — writes of
    /// other processes were lost. A new file is created with O_EXCL; an existing one is chmod'ed.
    static func makePrivate(_ path: String) {
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            fchmod(descriptor, 0o600)
            close(descriptor)  // a file nobody had open: no lock to lose
        }
        for file in [path, path + "-wal", path + "-shm"] where access(file, F_OK) == 0 {
            chmod(file, 0o600)
        }
    }

    private static func withOpenLock<Result>(path: String, _ body: () throws -> Result) throws -> Result {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw ConnError.unavailable(
                .databaseUnavailable, "cannot create the lock file \(path): \(String(cString: strerror(errno)))",
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
