import ArgumentParser
import ConnCommandKit
import ConnCore
import Foundation

/// A command line that asks for help — `conn`, `conn --help`, `conn help inbox`, `conn inbox`
/// (a group without a command), `conn help environment` — answered here where ArgumentParser
/// would answer otherwise than conn's contract: the root's help with its commands first and the
/// environment left to `conn help environment` and `man conn`; JSON on stdout with --json
/// (ArgumentParser refused `conn help --json` and printed text for `conn inbox --json`).
enum HelpRequest {
    /// The command path help is asked for ([] for conn itself, ["environment"] for the
    /// variables and files), or nil when the line asks for none (or names no command).
    static func path(in arguments: [String]) -> [String]? {
        var words: [String] = []
        var asked = false
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            if word == "-h" || word == "--help" {
                asked = true
                index += 1
            } else if word.hasPrefix("-") {
                guard let width = GlobalOptions.globalOptionWidth(arguments, at: index) else { return nil }  // the command's own: its parser's
                index += width
            } else {
                words.append(word)
                index += 1
            }
        }
        if words.first == "help" {
            let rest = Array(words.dropFirst())
            if rest == ["environment"] { return rest }
            return rest.isEmpty || BuiltInModules.command(namedBy: rest)?.words == rest.count ? rest : nil
        }
        if words.isEmpty { return [] }
        guard let found = BuiltInModules.command(namedBy: words), found.words == words.count else { return nil }
        // A group without a command of its own prints its help; any command does with --help.
        let group = !found.command.configuration.subcommands.isEmpty && found.command.configuration.defaultSubcommand == nil
        return asked || group ? words : nil
    }

    /// ArgumentParser's help for the command at `path`, with the global options after its own.
    static func text(for path: [String]) -> String {
        let command = BuiltInModules.command(namedBy: path)?.command ?? ConnRoot.self
        return HelpLayout.globalOptionsLast(ConnRoot.helpMessage(for: command))
    }

    /// The root's help: what conn is, its commands, then how to use them; the global options are
    /// named in a paragraph (each command's help lists them), the environment and files are in
    /// `conn help environment` and `man conn`.
    static func rootText() -> String {
        HelpLayout.root(text(for: []))
    }

    /// The variables conn reads and the files it keeps, wrapped to `width` with their
    /// descriptions indented.
    static func environmentText(width: Int) -> String {
        func block(_ title: String, _ items: [(String, String)]) -> String {
            ([title] + items.map { name, meaning in
                "  " + name + "\n" + HelpLayout.wrap(meaning, width: width, indent: 6)
            }).joined(separator: "\n")
        }
        return block("ENVIRONMENT:", HelpText.environment) + "\n\n" + block("FILES:", HelpText.files) + "\n"
    }

    /// Help as JSON: the command, its abstract, its commands, and the text `--help` prints.
    struct Document: Encodable {
        struct Subcommand: Encodable {
            let name: String
            let abstract: String
        }
        struct Entry: Encodable {
            let name: String
            let description: String
        }
        let command: String
        let abstract: String
        let subcommands: [Subcommand]
        let help: String
        /// `conn help environment` only.
        var environment: [Entry]?
        var files: [Entry]?
    }

    static func document(for path: [String]) -> Document {
        if path == ["environment"] {
            var document = Document(command: "conn help environment", abstract: "The environment variables conn reads and the files it keeps.",
                                    subcommands: [], help: environmentText(width: 80))
            document.environment = HelpText.environment.map { Document.Entry(name: $0.0, description: $0.1) }
            document.files = HelpText.files.map { Document.Entry(name: $0.0, description: $0.1) }
            return document
        }
        let configuration: CommandConfiguration
        let subcommands: [Document.Subcommand]
        if let found = BuiltInModules.command(namedBy: path) {
            configuration = found.command.configuration
            subcommands = configuration.subcommands.map { Document.Subcommand(name: $0._commandName, abstract: $0.configuration.abstract) }
        } else {
            configuration = ConnRoot.configuration
            subcommands = BuiltInModules.commands.map { Document.Subcommand(name: $0._commandName, abstract: $0.configuration.abstract) }
        }
        return Document(command: (["conn"] + path).joined(separator: " "), abstract: configuration.abstract, subcommands: subcommands,
                        help: path.isEmpty ? rootText() : text(for: path))
    }
}
