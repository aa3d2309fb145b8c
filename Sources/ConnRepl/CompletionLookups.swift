import ConnCommandKit
import ConnCore
import ConnInbox
import ConnOutbox
import GRDB
import Synchronization

/// Uids and outbox ids for Tab, read from the local database (opened on first use).
final class CompletionLookups: Sendable {
    private let context: CommandContext
    private let database = Mutex<LocalDatabase?>(nil)

    init(context: CommandContext) {
        self.context = context
    }

    /// Inbox uids starting with `prefix` (at most 100).
    func uids(_ prefix: String) -> [String] {
        strings("SELECT uid FROM inboxMessage WHERE substr(uid, 1, length(?1)) = ?1 ORDER BY uid LIMIT 100", prefix)
    }

    /// Outbox ids starting with `prefix`, shortened to 8 characters (a prefix is enough) unless
    /// more were typed.
    func outboxIDs(_ prefix: String) -> [String] {
        let ids = strings("SELECT id FROM outboxMessage WHERE substr(id, 1, length(?1)) = ?1 ORDER BY createdAt DESC LIMIT 100", prefix.lowercased())
        return Array(Set(ids.map { String($0.prefix(max(8, prefix.count))) }))
    }

    private func strings(_ sql: String, _ argument: String) -> [String] {
        guard let database = open() else { return [] }
        return (try? database.writer.read { db in try String.fetchAll(db, sql: sql, arguments: [argument]) }) ?? []
    }

    private func open() -> LocalDatabase? {
        database.withLock { database in
            if database == nil { database = try? context.openDatabase(migrations: InboxMigrations.all + OutboxMigrations.all) }
            return database
        }
    }
}
