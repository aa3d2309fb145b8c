import ArgumentParser
import ConnAccount
import ConnAgent
import ConnClock
import ConnInbox
import ConnOutbox
import ConnConfigCommands
import ConnPlugins
import ConnProbe
import ConnRepl
import ConnRequest
import ConnSend
import ConnTop
import ConnWatch

/// The one list of built-in capability modules: each module contributes its top-level command.
/// A new capability adds its module to Package.swift and one line here.
enum BuiltInModules {
    /// Each top-level command under its name. The names are written out because learning one from
    /// `configuration` builds that command's whole configuration (its help text, its subcommands):
    /// start-up did that for all thirteen to find one (5 % of `config show`). The types are behind
    /// closures because naming a type makes the runtime lay out its metadata (every option's
    /// generic wrapper): only the command that runs needs that. A test compares the names with
    /// the names the configurations give (CommandLineTests).
    static let named: [(name: String, command: @Sendable () -> any ParsableCommand.Type)] = [
        ("probe", { ProbeCommand.self }),
        ("watch", { WatchCommand.self }),
        ("top", { TopCommand.self }),
        ("clock-offset", { ClockOffsetCommand.self }),
        ("inbox", { InboxCommand.self }),
        ("send", { SendCommand.self }),
        ("request", { RequestCommand.self }),
        ("get", { GetCommand.self }),
        ("cache", { CacheCommand.self }),
        ("outbox", { OutboxCommand.self }),
        ("repl", { ReplCommand.self }),
        ("agent", { AgentCommand.self }),
        ("login", { LoginCommand.self }),
        ("logout", { LogoutCommand.self }),
        ("config", { ConfigCommand.self }),
        ("plugins", { PluginsCommand.self }),
    ]

    static var commands: [any ParsableCommand.Type] { named.map { $0.command() } }

    static var commandNames: [String] { named.map { $0.name } }

    /// The command the leading `words` name — a top-level command, found without building any
    /// command's configuration, then its subcommands as far as the words name them — and how
    /// many words that took; nil when the first word names no built-in command.
    static func command(namedBy words: [String]) -> (command: any ParsableCommand.Type, words: Int)? {
        guard let first = words.first, var command = named.first(where: { $0.name == first })?.command() else { return nil }
        var count = 1
        for word in words.dropFirst() {
            guard let next = command.configuration.subcommands.first(where: { $0._commandName == word || $0.configuration.aliases.contains(word) })
            else { break }
            command = next
            count += 1
        }
        return (command, count)
    }
}
