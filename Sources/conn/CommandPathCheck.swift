import ArgumentParser
import ConnCommandKit
import ConnCore

/// The words of a command line where a command belongs, checked before ArgumentParser sees
/// them: a word that names no command is the error, and is said to be. ArgumentParser blames a
/// valid option after it (`conn inbox lst -v` → "unknown option '-v'") or prints the root's
/// help for it (`conn nosuch --help`, exit 0).
enum CommandPathCheck {
    /// Words after which ArgumentParser answers for the tree, as for a command parsed alone —
    /// except `--`, which ends a command's options: where a command belongs it names none.
    static func answeredByTheTree(_ word: String) -> Bool {
        word != "--" && LeafCommandParser.answeredByTheTree(word)
    }

    /// The usage error for the first word that names no command where one belongs, or nil
    /// (the path is sound, or what follows is a command's own to judge).
    static func problem(in arguments: [String], environment: [String: String]) -> ConnError? {
        var index = pastGlobalOptions(arguments, from: 0)
        guard index < arguments.count, !arguments[index].hasPrefix("-"), !answeredByTheTree(arguments[index]) else { return nil }
        guard let found = BuiltInModules.named.first(where: { $0.name == arguments[index] }) else {
            let unknown = EntryPoint.suggestion(for: arguments, environment: environment) ?? "'\(arguments[index])' is not a conn command"
            return .usage(unknown, hint: "usage: conn <subcommand> (see 'conn --help')")
        }
        var command = found.command()
        var path = "conn \(found.name)"
        index += 1
        while !command.configuration.subcommands.isEmpty {
            index = pastGlobalOptions(arguments, from: index)
            guard index < arguments.count, !answeredByTheTree(arguments[index]) else { return nil }
            let word = arguments[index]
            let subcommands = command.configuration.subcommands
            if let next = subcommands.first(where: { $0._commandName == word || $0.configuration.aliases.contains(word) }) {
                command = next
                path += " " + next._commandName
                index += 1
                continue
            }
            // A group with a default (`conn agent` runs `conn agent run`): the word is its argument.
            guard command.configuration.defaultSubcommand == nil else { return nil }
            let names = subcommands.map { $0._commandName }
            let shown = URLUserinfo.redacted(word)
            let hint = "usage: \(path) \(names.joined(separator: "|")) (see '\(path) --help')"
            if word.hasPrefix("-") {
                return .usage("unknown option '\(shown)' for '\(path)', which takes a command first", hint: hint)
            }
            let closest = Suggestions.closest(to: word, among: names).map { " (did you mean '\($0)'?)" } ?? ""
            return .usage("'\(shown)' is not a command of '\(path)'\(closest)", hint: hint)
        }
        return nil
    }

    /// The index of the first word from `start` on that is not a global option or its value.
    static func pastGlobalOptions(_ arguments: [String], from start: Int) -> Int {
        var index = start
        while index < arguments.count, arguments[index].hasPrefix("-"), let width = GlobalOptions.globalOptionWidth(arguments, at: index) {
            index += width
        }
        return index
    }
}
