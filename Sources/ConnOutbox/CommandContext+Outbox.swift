import ConnCommandKit
import ConnCore

extension CommandContext {
    /// The outbox in the local database, with the configured expiry and token.
    public func openOutbox() throws -> OutboxStore {
        OutboxStore(
            database: try openDatabase(migrations: OutboxMigrations.all),
            expiry: configuration.outboxExpiry, keepSent: configuration.outboxKeepSent, token: configuration.outboxPauseIdentity)
    }

    /// Where this context's agent would be (one per database).
    public var agentPlace: AgentPlace {
        AgentPlace(databaseFile: configuration.paths.databaseFile, environment: environment)
    }

    /// The pid of the agent that runs for this database, or nil (asked of the kernel's lock).
    public var runningAgent: Int32? { AgentLock.holder(agentPlace) }
}

extension CommandContext {
    /// The origin of the server configured now (`https://host:443`), to compare with a message's.
    var configuredOrigin: String? {
        configuration.backEnd.map { OutboxTarget($0).origin }
    }
}
