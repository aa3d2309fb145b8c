import ArgumentParser
import ConnCore
import Foundation

/// A conn command: an ArgumentParser command whose work happens in `run(in:)` with a context.
///
/// `run()` builds the real context (configuration from flags, environment and file; stdout and
/// stderr; the terminal) and reports errors by the output contract. Tests call
/// `CommandRunner.execute` with their own environment and a capturing sink instead.
public protocol ConnCommand: AsyncParsableCommand {
    var global: GlobalOptions { get }
    /// Whether the command runs with the config file unread (see `ConfigFileWritingCommand`).
    /// A static answer, not a cast: `is any ConfigFileWritingCommand` walked the binary's
    /// conformance records on every command's start (issue 40).
    static var readsConfigFileItself: Bool { get }
    func run(in context: CommandContext) async throws
}

extension ConnCommand {
    public static var readsConfigFileItself: Bool { false }
}

/// A command that writes the config file (`config init`, `set`, `edit`): it runs with the file
/// unread, since it must work when the file is missing or broken, and reads the file itself.
public protocol ConfigFileWritingCommand: ConnCommand {}

extension ConfigFileWritingCommand {
    public static var readsConfigFileItself: Bool { true }
}

extension ConnCommand {
    /// ArgumentParser's entry point, for a command run without conn's `EntryPoint` (which calls
    /// `CommandRunner.execute` itself, with the environment it was given): the process's
    /// environment, and a non-zero exit code thrown as ArgumentParser expects.
    public func run() async throws {
        let environment = ProcessEnvironment.current()
        let code = await CommandRunner.execute(
            self, environment: environment, sink: StandardOutputSink(),
            terminal: .current(environment: environment))
        if code != 0 { throw ExitCode(code) }
    }
}

public enum CommandRunner {
    /// Runs `command` with `environment` (configuration from its flags, this environment and the
    /// config file) and returns its exit code; every error has been printed by then.
    public static func execute<Command: ConnCommand>(
        _ command: Command, environment: [String: String], sink: any OutputSink, terminal: TerminalFacts,
        input: any TerminalInput = StandardInput()
    ) async -> Int32 {
        let global = command.global
        let configuration: ConnConfiguration
        do {
            var overrides = global.overrides
            overrides.ignoresConfigFile = Command.readsConfigFileItself
            configuration = try ConfigurationLoader(environment: environment).load(overrides)
        } catch {
            // Without a configuration, report in the format the flags or environment asked for.
            let format: OutputFormat = global.json || global.format == .json || environment["CONN_FORMAT"] == "json" ? .json : .text
            let printer = Printer(sink: sink, format: format, verbosity: global.verbosity, color: global.color ?? .auto,
                                  terminal: terminal, environment: environment)
            let connError = classify(error)
            printer.error(connError)
            return connError.exitStatus.rawValue
        }
        // --no-pager is CONN_PAGER=cat for this command (as git's --no-pager is GIT_PAGER=cat).
        let environment = global.noPager ? environment.merging(["CONN_PAGER": "cat"]) { $1 } : environment
        let context = CommandContext(
            configuration: configuration, environment: environment, terminal: terminal, sink: sink,
            verbosity: global.verbosity, input: input)
        for warning in configuration.warnings { context.printer.warning(warning) }
        // As wget does: turning the checks off is never silent (one line a run; not under -q).
        if configuration.insecure, CommandSession.insecureWarning.claim() {
            let source = configuration.sources["insecure"]?.description ?? "insecure"
            context.printer.warning("TLS certificates are not checked (insecure, from \(source)): anyone on the way can pose as the server")
        }
        if configuration.format == .prometheus, !(command is any PrometheusOutputCommand) {
            let refusal = ConnError.usage("--format prometheus is written by conn probe only",
                                          hint: "Use --format text or --format json here (check CONN_FORMAT and `format:` in the config file).")
            context.printer.error(refusal)
            return refusal.exitStatus.rawValue
        }
        do {
            try await command.run(in: context)
            return context.exitCode
        } catch is CancellationError where CommandSession.isEmbedded {
            // Ctrl-C in `conn repl`: the person knows; the command has printed its last line.
            return ExitStatus.temporaryFailure.rawValue
        } catch {
            var connError = StorageFailure.describe(error, path: configuration.paths.databaseFile) ?? classify(error)
            // Refused without the token conn kept back for another server: say which, and why.
            if connError.code == .authRefused, let withheld = configuration.withheldToken {
                connError.message += ": \(withheld.explanation)"
                connError.hint = withheld.hint
            } else if connError.code == .authRefused, configuration.credentials == nil {
                // Nothing was sent: "check the token" would send the person looking for one.
                connError.message += ": no token was sent, and this server wants one"
                connError.hint = "Sign in (conn login), or give a token with CONN_TOKEN or `token:` in the config file."
            }
            context.printer.error(connError)
            return connError.exitStatus.rawValue
        }
    }

    /// Every error becomes a `ConnError`; ones that are not are bugs or usage errors.
    public static func classify(_ error: any Error) -> ConnError {
        switch error {
        case let connError as ConnError: return connError
        case let validation as ValidationError: return .usage(validation.message)
        case is CancellationError: return ConnError(code: .cancelled, message: "cancelled", exitStatus: .temporaryFailure)
        default: return .internalError(String(describing: error))
        }
    }
}
