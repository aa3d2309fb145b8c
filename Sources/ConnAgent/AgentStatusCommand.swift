import ArgumentParser
import ConnCommandKit
import ConnCore
import ConnOutbox
import Foundation

/// `conn agent status`: what the running agent sees and did last, asked over its socket.
public struct AgentStatusCommand: ConnCommand {
    public static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show what the running agent sees and did last (69 when none runs).",
        discussion: HelpText.discussion(
            "",
            exitCodes: "0 an agent runs (its status follows); 69 no agent runs for this database",
            examples: [
                .init("conn agent status", "State, link, outbox counts, last delivery and sync."),
                .init("conn agent status --json | jq .outbox.pending", "How many messages wait, for a script."),
            ]))

    @OptionGroup(title: "Global options") public var global: GlobalOptions

    public init() {}

    public func run(in context: CommandContext) async throws {
        let place = context.agentPlace
        // A person or a script asked once: an agent busy with a look at hundreds of targets
        // gets five seconds to answer, not the one a fire-and-forget wake gets.
        guard let answer = AgentClient.ask(.status, at: place, timeout: .seconds(5)),
            let status = try? JSONOutput.decoder().decode(AgentStatus.self, from: Data(answer.utf8))
        else {
            let holder = AgentLock.holder(place)
            throw ConnError.unavailable(
                .noAgent, holder.map { "the agent (pid \($0)) does not answer" } ?? "no agent runs for \(place.databaseFile)",
                hint: holder == nil ? "Start one with `conn agent` (or `systemctl --user start conn-agent`)." : "It may be stopping; try again.")
        }
        try context.printer.emit(status)
    }
}
