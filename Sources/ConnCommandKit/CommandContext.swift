import ConnCore
import Foundation
import Logging

/// Everything a command needs to run, handed to it instead of globals: the resolved
/// configuration, where output goes, what the terminal is, and a logger.
public struct CommandContext: Sendable {
    public let configuration: ConnConfiguration
    public let environment: [String: String]
    public let terminal: TerminalFacts
    public let printer: Printer
    public let logger: Logger
    public let verbosity: Verbosity

    public init(
        configuration: ConnConfiguration, environment: [String: String], terminal: TerminalFacts,
        sink: any OutputSink, verbosity: Verbosity
    ) {
        self.configuration = configuration
        self.environment = environment
        self.terminal = terminal
        self.verbosity = verbosity
        self.printer = Printer(
            sink: sink, format: configuration.format, verbosity: verbosity, color: configuration.color,
            terminal: terminal, environment: environment)
        let level: Logger.Level = verbosity == .verbose ? .debug : .warning
        self.logger = Logger(label: "conn") { _ in SinkLogHandler(sink: sink, level: level) }
    }

    /// The configured back end, or an error that tells the user how to configure one.
    public func requireBackEnd() throws -> BackEndEndpoint {
        guard let backEnd = configuration.backEnd else {
            throw ConnError.configuration(
                "no server is configured",
                hint: "Pass --server URL, set CONN_SERVER, or add `server: URL` to \(configuration.configFile).")
        }
        return backEnd
    }

    /// Opens the local database with the core migrations and `migrations` (the caller's module's own).
    public func openDatabase(migrations: [DatabaseMigration] = []) throws -> LocalDatabase {
        try LocalDatabase(path: configuration.paths.databaseFile, migrations: migrations)
    }
}
