import Foundation
import GRDB

/// The values a shell's Tab and the REPL's complete from this machine: inbox uids and outbox ids
/// from the local database, profile names from the config file. Completing must be quick and
/// harmless: the database is opened read-only (never created, never migrated), and anything
/// missing or unreadable completes nothing.
public struct LocalLookups: Sendable {
    let databaseFile: String
    let configFile: String
    /// The inbox the configuration names (`InboxCopyRule`): its copy's uids are completed, not
    /// another server's, which `inbox thread` would not find. Read when uids are asked for only:
    /// an outbox id or a profile needs no configuration loaded.
    let inbox: @Sendable () -> URL?

    /// `overrides`: what the command line typed so far sets (`--server`, `--profile`, `--config`).
    public init(environment: [String: String], overrides: ConfigurationOverrides = .init()) {
        let paths = ConnPaths(environment: environment)
        databaseFile = paths.databaseFile
        configFile = overrides.configFile ?? environment["CONN_CONFIG"].flatMap { $0.isEmpty ? nil : $0 } ?? paths.defaultConfigFile
        inbox = { (try? ConfigurationLoader(environment: environment).load(overrides))?.url(for: .inbox) }
    }

    /// Lookups for a configuration already loaded (the REPL's): its inbox is `inbox`.
    public init(environment: [String: String], configFile: String, inbox: URL?) {
        databaseFile = ConnPaths(environment: environment).databaseFile
        self.configFile = configFile
        self.inbox = { inbox }
    }

    /// The overrides of the global options among a command line's `words`.
    public static func overrides(in words: [String]) -> ConfigurationOverrides {
        var overrides = ConfigurationOverrides()
        for (index, word) in words.enumerated() {
            let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
            let value = parts.count == 2 ? parts[1] : index + 1 < words.count ? words[index + 1] : nil
            switch parts[0] {
            case "--server": overrides.server = value
            case "--profile": overrides.profile = value
            case "--config": overrides.configFile = value
            default: continue
            }
        }
        return overrides
    }

    /// At most this many values: a Tab that lists thousands helps nobody.
    static let limit = 100

    /// Uids starting with `prefix` of the copy `inbox list` and `thread` read.
    public func inboxUIDs(_ prefix: String) -> [String] {
        let (copy, arguments) = InboxCopyRule.sourceIdQuery(configured: inbox())
        return strings("SELECT uid FROM inboxMessage WHERE sourceId = (\(copy)) AND substr(uid, 1, length(?)) = ? ORDER BY uid LIMIT \(Self.limit)",
                       arguments + [prefix, prefix])
    }

    /// Outbox ids starting with `prefix`, newest first, shortened to 8 characters (a prefix is
    /// enough) unless more were typed.
    public func outboxIDs(_ prefix: String) -> [String] {
        let ids = strings("SELECT id FROM outboxMessage WHERE substr(id, 1, length(?1)) = ?1 ORDER BY createdAt DESC LIMIT \(Self.limit)",
                          [prefix.lowercased()])
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

    private func strings(_ sql: String, _ arguments: StatementArguments) -> [String] {
        guard FileManager.default.fileExists(atPath: databaseFile) else { return [] }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(0.2)
        SQLiteSetup.prepare()
        guard let queue = try? DatabaseQueue(path: databaseFile, configuration: configuration) else { return [] }
        return (try? queue.read { db in try String.fetchAll(db, sql: sql, arguments: arguments) }) ?? []
    }
}
