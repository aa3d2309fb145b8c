import ConnCommandKit
import ConnCore

extension CommandContext {
    /// The outbox in the local database, with the configured expiry and token.
    public func openOutbox() throws -> OutboxStore {
        OutboxStore(
            database: try openDatabase(migrations: OutboxMigrations.all),
            expiry: configuration.outboxExpiry, token: configuration.token)
    }
}
