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

    /// The top-level command called `name`, without building any command's configuration.
    static func command(named name: String) -> (any ParsableCommand.Type)? {
        named.first { $0.name == name }?.command()
    }
}
