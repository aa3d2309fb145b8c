import ConnCore
import Foundation
import Logging
import Synchronization

/// Everything a command needs to run, handed to it instead of globals: the resolved
/// configuration, where output goes, what the terminal is, and a logger.
public struct CommandContext: Sendable {
    public let configuration: ConnConfiguration
    public let environment: [String: String]
    public let terminal: TerminalFacts
    public let printer: Printer
    public let logger: Logger
    public let verbosity: Verbosity
    /// What the person types: answers, confirmations, passwords (see `ask`).
    public let input: any TerminalInput
    private let sink: any OutputSink
    private let ownExitCode: ExitCodeBox

    public init(
        configuration: ConnConfiguration, environment: [String: String], terminal: TerminalFacts,
        sink: any OutputSink, verbosity: Verbosity, input: any TerminalInput = StandardInput()
    ) {
        self.init(configuration: configuration, environment: environment, terminal: terminal, sink: sink,
                  verbosity: verbosity, input: input, exitCode: ExitCodeBox())
    }

    private init(
        configuration: ConnConfiguration, environment: [String: String], terminal: TerminalFacts,
        sink: any OutputSink, verbosity: Verbosity, input: any TerminalInput, exitCode: ExitCodeBox
    ) {
        self.sink = sink
        self.input = input
        self.ownExitCode = exitCode
        self.configuration = configuration
        self.environment = environment
        self.terminal = terminal
        self.verbosity = verbosity
        self.printer = Printer(
            sink: sink, format: configuration.format, verbosity: verbosity, color: configuration.color,
            terminal: terminal, environment: environment, utc: configuration.utc)
        let level: Logger.Level = verbosity == .verbose ? .debug : .warning
        self.logger = Logger(label: "conn") { _ in SinkLogHandler(sink: sink, level: level) }
    }

    /// The same context (output, terminal, exit code) with another configuration: what the
    /// agent runs with after SIGHUP re-reads the file.
    public func replacing(configuration: ConnConfiguration) -> CommandContext {
        CommandContext(configuration: configuration, environment: environment, terminal: terminal, sink: sink,
                       verbosity: verbosity, input: input, exitCode: ownExitCode)
    }

    /// Shows `prompt` on stderr and reads the answer, trimmed of spaces; nil at the end of input.
    /// `hidingInput`: not echoed, and not trimmed (a password may start with a space).
    public func ask(_ prompt: String, hidingInput: Bool = false) -> String? {
        let shown = TerminalSanitizer.sanitize(prompt, keepNewlines: false)
        let answer = input.readLine(hidingInput: hidingInput) { sink.write(shown, to: .standardError) }
        guard let line = answer else { return nil }
        return hidingInput ? line : line.trimmingBlanks()
    }

    /// The exit code of a run that ends without an error: 0, unless the command set its own (the
    /// REPL's last command or `exit N`; watch's 130/143 after a clean stop on a signal).
    public var exitCode: Int32 { ownExitCode.value.withLock { $0 } }

    /// Sets the exit code the command ends with when it returns normally.
    public func setExitCode(_ code: Int32) { ownExitCode.value.withLock { $0 = code } }

    /// The configured back end, or an error that tells the user how to configure one.
    public func requireBackEnd() throws -> BackEndEndpoint {
        guard let backEnd = configuration.backEnd else {
            throw ConnError.configuration(
                "no server is configured",
                hint: "Pass --server URL, set CONN_SERVER, or add `server: URL` to \(configuration.configFile).")
        }
        return backEnd
    }

    /// Where `resource` is (under the server, or its own full URL), or an error naming the
    /// settings that would give it.
    public func requireURL(for resource: BackEndResource) throws -> URL {
        if let url = configuration.url(for: resource) { return url }
        let variable = ConfigKeys.environmentVariable(for: ["resources", resource.rawValue])
        throw ConnError.configuration(
            "no server is configured, and resources.\(resource.rawValue) is not a full URL",
            hint: "Pass --server URL or set CONN_SERVER; or give the \(resource.rawValue) alone as a full URL: "
                + "\(variable)=https://host\(resource.defaultPath) (or `resources: { \(resource.rawValue): URL }` in \(configuration.configFile)).")
    }

    /// Opens the local database with the core migrations and `migrations` (the caller's module's own).
    public func openDatabase(migrations: [DatabaseMigration] = []) throws -> LocalDatabase {
        try LocalDatabase(path: configuration.paths.databaseFile, migrations: migrations)
    }
}

/// A command's own exit code, shared by the copies of its (value-type) context.
private final class ExitCodeBox: Sendable {
    let value = Mutex<Int32>(0)
}
