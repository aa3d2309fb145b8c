import Foundation
import GRDB

/// The values a shell's Tab and the REPL's complete from this machine: inbox uids and outbox ids
/// from the local database, profile names from the config file. Completing must be quick and
/// harmless: the database is opened read-only (never created, never migrated), and anything
/// missing or unreadable completes nothing.
public struct LocalLookups: Sendable {
    let databaseFile: String
    let configFile: String

    public init(environment: [String: String]) {
        let paths = ConnPaths(environment: environment)
        databaseFile = paths.databaseFile
        configFile = environment["CONN_CONFIG"].flatMap { $0.isEmpty ? nil : $0 } ?? paths.defaultConfigFile
    }

    /// At most this many values: a Tab that lists thousands helps nobody.
    static let limit = 100

    /// Inbox uids starting with `prefix`.
    public func inboxUIDs(_ prefix: String) -> [String] {
        strings("SELECT DISTINCT uid FROM inboxMessage WHERE substr(uid, 1, length(?1)) = ?1 ORDER BY uid LIMIT \(Self.limit)", prefix)
    }

    /// Outbox ids starting with `prefix`, newest first, shortened to 8 characters (a prefix is
    /// enough) unless more were typed.
    public func outboxIDs(_ prefix: String) -> [String] {
        let ids = strings("SELECT id FROM outboxMessage WHERE substr(id, 1, length(?1)) = ?1 ORDER BY createdAt DESC LIMIT \(Self.limit)",
                          prefix.lowercased())
        var seen = Set<String>()
        return ids.map { String($0.prefix(max(8, prefix.count))) }.filter { seen.insert($0).inserted }
    }

    /// The profiles of the config file (its `profiles` keys) starting with `prefix`.
    public func profiles(_ prefix: String) -> [String] {
        guard let data = try? InputFile.read(configFile, option: "--config", limit: 1 << 20),
            let document = try? ConfigFileDocument(path: configFile, text: String(decoding: data, as: UTF8.self)),
            let profiles = document.node(at: ["profiles"])?.mapping
        else { return [] }
        return profiles.keys.compactMap(\.string).filter { $0.hasPrefix(prefix) }.sorted()
    }

    private func strings(_ sql: String, _ argument: String) -> [String] {
        guard FileManager.default.fileExists(atPath: databaseFile) else { return [] }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(0.2)
        SQLiteSetup.prepare()
        guard let queue = try? DatabaseQueue(path: databaseFile, configuration: configuration) else { return [] }
        return (try? queue.read { db in try String.fetchAll(db, sql: sql, arguments: [argument]) }) ?? []
    }
}
