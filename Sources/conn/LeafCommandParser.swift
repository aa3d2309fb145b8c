import ArgumentParser

/// Parses a command line with the command it names alone, as if that command were the root:
/// ArgumentParser's `parseAsRoot` on `conn` reflects over the whole tree (every command's
/// arguments, the completion-script check) before it runs one. The whole tree is still what
/// answers help, completion requests, `--` and every error: `parse` returns nil for those, and
/// the caller parses again from the root, so what users see does not change.
enum LeafCommandParser {
    /// Words that only the whole tree answers (help, completions, the dumped tree, the version).
    static let wordsForTheTree: Set<String> = ["-h", "--help", "help", "--version", "--", "--experimental-dump-help"]

    /// Whether ArgumentParser's whole tree must answer `word` (help, completion requests, `--`).
    static func answeredByTheTree(_ word: String) -> Bool {
        wordsForTheTree.contains(word) || word.hasPrefix("--generate-completion") || word.hasPrefix("---")
    }

    /// The command `arguments` name (a path of subcommand names, then its own arguments),
    /// parsed; nil when the tree must do it.
    static func parse(_ arguments: [String]) -> (any ParsableCommand)? {
        guard let found = BuiltInModules.command(namedBy: arguments) else { return nil }
        var command = found.command
        // A group with a default subcommand (`conn agent --json` is `conn agent run --json`)
        // runs that one; a group without one prints its help: the tree's work.
        while !command.configuration.subcommands.isEmpty, let fallback = command.configuration.defaultSubcommand {
            command = fallback
        }
        guard command.configuration.subcommands.isEmpty else { return nil }
        let own = arguments[found.words...]
        guard !own.contains(where: answeredByTheTree) else { return nil }
        return try? parseAlone(command, Array(own))
    }

    /// `command` parsed as `LeafRoot<Command>`, unwrapped.
    private static func parseAlone<Command: ParsableCommand>(_ command: Command.Type, _ arguments: [String]) throws -> any ParsableCommand {
        guard let parsed = try LeafRoot<Command>.parseAsRoot(arguments) as? LeafRoot<Command> else { throw ValidationError("not this command") }
        return parsed.command
    }
}

/// A command as a root of its own, marked as a sub-command of `conn` (`_superCommandName`) so
/// that ArgumentParser skips its check for `--generate-completion-script`, which reflects over
/// the command's arguments a second time (18 % of `config show`'s samples). Completion requests
/// never get here (`LeafCommandParser` leaves them to the whole tree), and neither do help and
/// errors, where the name would show.
private struct LeafRoot<Command: ParsableCommand>: ParsableCommand {
    static var configuration: CommandConfiguration {
        var configuration = Command.configuration
        configuration._superCommandName = "conn"
        return configuration
    }

    // Decoding the group validates the command (`OptionGroup` calls its `validate()`).
    @OptionGroup var command: Command
}
