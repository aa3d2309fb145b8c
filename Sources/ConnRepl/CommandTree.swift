import Foundation

/// conn's command tree as ArgumentParser describes it (`--experimental-dump-help`): names of
/// commands and options, and which options take a value. Completion reads it, so it never drifts
/// from the commands.
public struct CommandTree: Sendable, Equatable {
    public struct Option: Sendable, Equatable {
        /// Spellings with dashes: "--state", "-v".
        public var names: [String]
        public var takesValue: Bool
        /// The value's name in help ("state", "uid", "id").
        public var valueName: String?
        /// Values to offer, where the option lists them.
        public var values: [String]
    }

    public var name: String
    public var subcommands: [CommandTree]
    public var options: [Option]
    /// Value names of the positional arguments, in order ("uid", "id", "target").
    public var positionals: [String]

    public init(name: String, subcommands: [CommandTree] = [], options: [Option] = [], positionals: [String] = []) {
        self.name = name
        self.subcommands = subcommands
        self.options = options
        self.positionals = positionals
    }

    public func subcommand(_ name: String) -> CommandTree? {
        subcommands.first { $0.name == name }
    }

    public func option(named name: String) -> Option? {
        options.first { $0.names.contains(name) }
    }

    /// Reads ArgumentParser's help dump (`conn --experimental-dump-help`).
    public init(dumpHelpJSON: String) throws {
        let document = try JSONDecoder().decode(Document.self, from: Data(dumpHelpJSON.utf8))
        self.init(document.command)
    }

    private init(_ info: CommandInfo) {
        name = info.commandName
        subcommands = (info.subcommands ?? []).filter { $0.shouldDisplay ?? true }.map(CommandTree.init)
        let visible = (info.arguments ?? []).filter { $0.shouldDisplay ?? true }
        options = visible.filter { $0.kind != "positional" }.map { argument in
            Option(names: (argument.names ?? []).map { ($0.kind == "short" ? "-" : "--") + $0.name },
                   takesValue: argument.kind == "option", valueName: argument.valueName,
                   values: argument.allValues ?? argument.completionKind?.list?.values ?? [])
        }
        positionals = visible.filter { $0.kind == "positional" }.map { $0.valueName ?? "" }
    }

    private struct Document: Decodable {
        var command: CommandInfo
    }

    private struct CommandInfo: Decodable {
        var commandName: String
        var shouldDisplay: Bool?
        var subcommands: [CommandInfo]?
        var arguments: [ArgumentInfo]?
    }

    private struct ArgumentInfo: Decodable {
        struct Name: Decodable {
            var kind: String
            var name: String
        }
        var kind: String
        var shouldDisplay: Bool?
        var names: [Name]?
        var valueName: String?
        var allValues: [String]?
        /// `completion: .list(…)` of a plain String option.
        var completionKind: CompletionKind?
    }

    private struct CompletionKind: Decodable {
        struct Values: Decodable {
            var values: [String]
        }
        var list: Values?
    }
}
