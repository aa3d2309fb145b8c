import GRDB

/// One step of the local database's schema. Capability modules contribute their own migrations;
/// identifiers are namespaced by module (`outbox.v1.create`) and never change once shipped.
public struct DatabaseMigration: Sendable {
    public let identifier: String
    public let migrate: @Sendable (Database) throws -> Void

    public init(_ identifier: String, migrate: @escaping @Sendable (Database) throws -> Void) {
        self.identifier = identifier
        self.migrate = migrate
    }
}
