import ArgumentParser
import ConnCommandKit
import ConnCore
import ConnPlugins
import ConnRepl
import Foundation

/// Runs the command line: an external plugin if it names one, else the built-in command tree.
enum EntryPoint {
    static func main(arguments: [String], environment: [String: String]) async -> Never {
        PluginsCommand.builtInNames = BuiltInModules.commandNames
        ReplCommand.host = ReplHost(
            run: { arguments, environment in await run(arguments, environment: environment, embedded: true) },
            commandTreeJSON: {
                // ArgumentParser answers this flag with the tree as JSON, through its "error".
                do { _ = try ConnRoot.parseAsRoot(["--experimental-dump-help"]) } catch { return ConnRoot.fullMessage(for: error) }
                return ""
            })
        exit(await run(arguments, environment: environment, embedded: false))
    }

    /// Runs one command line with `environment` (the process's, or the REPL's with its flags):
    /// a plugin, or a built-in command. Returns the exit code. Inside `conn repl` (`embedded`)
    /// help and version print and return too; otherwise ArgumentParser prints them and ends the
    /// process, as it always has.
    static func run(_ arguments: [String], environment: [String: String], embedded: Bool) async -> Int32 {
        let sink = StandardOutputSink()
        let terminal = TerminalFacts.current(environment: environment)
        let dispatcher = PluginDispatcher(
            builtInNames: Set(BuiltInModules.commandNames), locator: PluginLocator(environment: environment))
        if let invocation = dispatcher.resolve(arguments) {
            return PluginLauncher.run(invocation, environment: environment, sink: sink, terminal: terminal)
        }
        if VersionInfo.isRequested(by: arguments) {
            let version = VersionInfo.current
            let text = wantsJSON(arguments: arguments, environment: environment)
                ? ((try? JSONOutput.encode(version)) ?? version.text) + "\n" : version.renderText(style: TextStyle(enabled: false))
            sink.write(text, to: .standardOutput)
            return 0
        }
        if let problem = CommandPathCheck.problem(in: arguments, environment: environment) {
            return reportUsage(problem, arguments: arguments, environment: environment, sink: sink)
        }
        if let path = HelpRequest.path(in: arguments) {
            if wantsJSON(arguments: arguments, environment: environment) {
                sink.write(((try? JSONOutput.encode(HelpRequest.document(for: path))) ?? "") + "\n", to: .standardOutput)
                return 0
            }
            if path == ["environment"] {
                sink.write(HelpRequest.environmentText(width: TerminalSize.columns(environment: environment)), to: .standardOutput)
                return 0
            }
            if path.isEmpty {
                sink.write(HelpRequest.rootText(), to: .standardOutput)
                return 0
            }
        }
        do {
            let arguments = GlobalOptions.movingLeadingOptions(arguments, subcommands: subcommandNames)
            var command = try LeafCommandParser.parse(arguments) ?? TrailingCommandParser.parse(ConnRoot.self, arguments)
            if let connCommand = command as? any ConnCommand {
                return await CommandRunner.execute(connCommand, environment: environment, sink: sink, terminal: terminal)
            }
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            return 0
        } catch {
            return report(error, arguments: arguments, environment: environment, sink: sink, embedded: embedded)
        }
    }

    /// The names of the subcommands of the command at `path` in the built-in tree.
    static func subcommandNames(_ path: [String]) -> [String] {
        guard !path.isEmpty else { return BuiltInModules.commandNames }
        guard let found = BuiltInModules.command(namedBy: path), found.words == path.count else { return [] }
        return found.command.configuration.subcommands.map { $0._commandName }
    }

    /// Prints a parse or usage error by the output contract and returns the exit code.
    /// Help and completion scripts print on stdout (help with the command's own options first).
    static func report(_ error: any Error, arguments: [String], environment: [String: String], sink: any OutputSink, embedded: Bool) -> Int32 {
        let code = ConnRoot.exitCode(for: error)
        if let exit = error as? ExitCode, embedded {
            return exit.rawValue  // the command has reported already
        }
        if code == .success, !(error is ExitCode) {
            // Help (the command's own options first) or a completion script, on stdout.
            sink.write(HelpLayout.globalOptionsLast(ConnRoot.fullMessage(for: error)) + "\n", to: .standardOutput)
            if embedded { return 0 }
            exit(0)
        }
        if error is ExitCode {
            ConnRoot.exit(withError: error)  // a command that already reported
        }
        let suggestion = suggestion(for: arguments, environment: environment)
        // ArgumentParser quotes the argument it did not expect as it was typed: a
        // `user:password@host` there is shown as `***@host`.
        if wantsJSON(arguments: arguments, environment: environment) {
            let message = URLUserinfo.redactingSecrets(inLine: ConnRoot.message(for: error) + (suggestion.map { "\n" + $0 } ?? ""))
            let payload = ErrorPayload(code: "usage", message: message, exitCode: code.rawValue)
            sink.write(((try? JSONOutput.encode(payload)) ?? "") + "\n", to: .standardError)
        } else {
            // ArgumentParser's full message in conn's form: the error (or, for a word that is
            // no command, conn's own line in its place), its help line, the usage, where to read more.
            let text = UsageErrorText.format(ConnRoot.fullMessage(for: error), unknownCommand: suggestion)
            sink.write(URLUserinfo.redactingSecrets(inLine: text), to: .standardError)
        }
        return code.rawValue
    }

    /// A usage error conn found itself (before ArgumentParser), said as `report` says one: a
    /// JSON error object, or "conn: error: …" and the usage line. 64.
    static func reportUsage(_ problem: ConnError, arguments: [String], environment: [String: String], sink: any OutputSink) -> Int32 {
        if wantsJSON(arguments: arguments, environment: environment) {
            sink.write(((try? JSONOutput.encode(ErrorPayload(problem))) ?? "") + "\n", to: .standardError)
        } else {
            var text = "conn: error: \(TerminalSanitizer.sanitize(problem.message))\n"
            if let hint = problem.hint { text += "conn: \(TerminalSanitizer.sanitize(hint))\n" }
            sink.write(text, to: .standardError)
        }
        return problem.exitStatus.rawValue
    }

    /// "Did you mean …?" for a first word that is neither a built-in command nor a plugin.
    static func suggestion(for arguments: [String], environment: [String: String]) -> String? {
        // The first word that is neither an option nor a global option's value (`--server URL`
        // names a server, not a command); never echoed with a password in it.
        var index = 0
        while index < arguments.count, arguments[index].hasPrefix("-") {
            index += GlobalOptions.globalOptionWidth(arguments, at: index) ?? 1
        }
        guard index < arguments.count else { return nil }
        let word = URLUserinfo.redacted(arguments[index])
        guard !BuiltInModules.commandNames.contains(word), word != "help" else { return nil }
        if PluginLocator.ownExecutables.contains(word) {
            return "'\(word)' is not a conn command: conn-\(word) is a program of its own (run `conn-\(word) --help`), never a plugin"
        }
        let plugins = PluginLocator(environment: environment).all().map(\.name)
        let candidates = BuiltInModules.commandNames + plugins
        let closest = Suggestions.closest(to: word, among: candidates).map { " (did you mean '\($0)'?)" } ?? ""
        return "'\(word)' is not a conn command, and no conn-\(word) plugin was found on PATH\(closest)"
    }

    static func wantsJSON(arguments: [String], environment: [String: String]) -> Bool {
        if arguments.contains("--json") || arguments.contains("--format=json") { return true }
        if let index = arguments.firstIndex(of: "--format"), index + 1 < arguments.count, arguments[index + 1] == "json" {
            return true
        }
        return environment["CONN_FORMAT"] == "json"
    }
}
