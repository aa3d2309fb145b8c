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
    static let commands: [any ParsableCommand.Type] = [
        ProbeCommand.self,
        WatchCommand.self,
        TopCommand.self,
        ClockOffsetCommand.self,
        InboxCommand.self,
        SendCommand.self,
        OutboxCommand.self,
        ReplCommand.self,
        AgentCommand.self,
        LoginCommand.self,
        LogoutCommand.self,
        ConfigCommand.self,
        PluginsCommand.self,
    ]

    static var commandNames: [String] {
        commands.map { $0.configuration.commandName ?? "\($0)".lowercased() }
    }
}
