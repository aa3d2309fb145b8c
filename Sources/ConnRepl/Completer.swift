import ConnCommandKit

/// What Tab offers in the REPL: commands, subcommands and options from the command tree, the
/// REPL's own words, listed option values, and uids and outbox ids from the local database where
/// an argument takes one.
public struct Completer: Sendable {
    /// Candidates for a dynamic value: message uids or outbox ids starting with a prefix.
    public typealias Lookup = @Sendable (_ prefix: String) -> [String]

    public var tree: CommandTree
    public var builtIns: [String]
    public var uids: Lookup
    public var outboxIDs: Lookup

    public init(tree: CommandTree, builtIns: [String], uids: @escaping Lookup = { _ in [] }, outboxIDs: @escaping Lookup = { _ in [] }) {
        self.tree = tree
        self.builtIns = builtIns
        self.uids = uids
        self.outboxIDs = outboxIDs
    }

    /// The words that could replace the last (partial) word of `lineBeforeCursor`, sorted.
    public func candidates(for lineBeforeCursor: String) -> [String] {
        var words = (try? ShellTokenizer.split(lineBeforeCursor))
            ?? lineBeforeCursor.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        let partial = lineBeforeCursor.last.map { $0 == " " || $0 == "\t" } == false ? (words.popLast() ?? "") : ""
        var node = tree
        var positionalIndex = 0
        var pendingOption: CommandTree.Option?
        for word in words {
            if pendingOption != nil {
                pendingOption = nil
                continue
            }
            if word.hasPrefix("-") {
                let name = String(word.prefix { $0 != "=" })
                // A global option before the command (`--server URL inbox …`) is not in the
                // tree's node yet: its value is not a command word either.
                let option = node.option(named: name)
                    ?? (GlobalOptions.optionsTakingValues.contains(name) ? CommandTree.Option(names: [name], takesValue: true, valueName: nil, values: []) : nil)
                if let option, option.takesValue, !word.contains("=") { pendingOption = option }
                continue
            }
            if let child = node.subcommand(word) {
                node = child
                positionalIndex = 0
            } else {
                positionalIndex += 1
            }
        }
        let options: [String]
        if let pendingOption {
            options = values(for: pendingOption.valueName, listed: pendingOption.values, prefix: partial)
        } else if partial.hasPrefix("--"), let equals = partial.firstIndex(of: "="),
                  let option = node.option(named: String(partial[..<equals])), option.takesValue {
            let head = String(partial[...equals])
            options = values(for: option.valueName, listed: option.values, prefix: String(partial[partial.index(after: equals)...])).map { head + $0 }
        } else if partial.hasPrefix("-") {
            options = node.options.flatMap(\.names).filter { $0.hasPrefix("--") || partial.count <= 2 }
        } else {
            var offered: [String] = []
            if positionalIndex == 0 {
                offered += node.subcommands.map(\.name)
                if words.isEmpty { offered += builtIns }
            }
            if node.subcommands.isEmpty, !node.positionals.isEmpty {
                let name = node.positionals[min(positionalIndex, node.positionals.count - 1)]
                offered += values(for: name, listed: [], prefix: partial)
            }
            options = offered
        }
        return Array(Set(options.filter { $0.hasPrefix(partial) })).sorted()
    }

    private func values(for valueName: String?, listed: [String], prefix: String) -> [String] {
        if !listed.isEmpty { return listed }
        switch valueName {
        case "uid": return uids(prefix)
        case "id": return outboxIDs(prefix)
        default: return []
        }
    }
}
