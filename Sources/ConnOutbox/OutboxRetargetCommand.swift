import ArgumentParser
import ConnCommandKit
import ConnCore
import Foundation

/// `conn outbox retarget`: move messages to the server configured now. A message is for the
/// server it was queued for and is delivered nowhere else; moving it is the user's decision.
public struct OutboxRetargetCommand: ConnCommand {
    public static let configuration = CommandConfiguration(
        commandName: "retarget",
        abstract: "Move waiting or failed messages to the server configured now (--server, the profile, the config file).",
        discussion: HelpText.discussion(
            """
            A message is delivered only to the server it was queued for: one queued while staging \
            was down is never sent to production because the configuration changed since. \
            retarget moves it on purpose: it is then delivered to the server in effect for this \
            command, with an Idempotency-Key of its own there (the same each time it moves there), \
            and is due at once. A failed message moves too; `conn outbox resend` tries it again. A \
            sent message stays where it went.
            """,
            exitCodes: "0 moved; 64 no ids, a sent message; 69 no such id; 75 a message is being sent; 78 no server configured",
            examples: [
                .init("conn outbox retarget 3f2a --server https://api.example.com", "Deliver a message queued for staging to production."),
                .init("conn --profile production outbox retarget 3f2a 9c1e", "Move two messages to the production profile's server."),
            ]))

    @OptionGroup(title: "Global options") public var global: GlobalOptions

    @Argument(help: ArgumentHelp("Message ids (unique prefixes are enough).", valueName: "id"), completion: LiveCompletion.outboxIDs)
    var ids: [String] = []

    public init() {}

    public func validate() throws {
        if ids.isEmpty { throw ValidationError("name the messages to move by id.") }
    }

    public func run(in context: CommandContext) async throws {
        let target = OutboxTarget(try context.requireBackEnd())
        let store = try context.openOutbox()
        let chosen = try store.resolve(ids)
        let moved = try store.retarget(chosen.map(\.id), to: target, now: Date())
        // A running agent for this server takes them at once, as it does a message `send` hands over.
        let waiting = moved.filter { $0.state == .pending }.map(\.id)
        if !waiting.isEmpty, context.runningAgent != nil { _ = AgentClient.ask(.wake(handingOver: waiting), at: context.agentPlace) }
        try context.printer.emit(OutboxListReport(messages: moved.map {
            var report = MessageReport($0)
            report.configuredServer = target.origin
            return report
        }, pause: try store.pause()))
        context.printer.note("moved \(moved.count) message\(moved.count == 1 ? "" : "s") to \(target.origin); `conn outbox flush` sends \(moved.count == 1 ? "it" : "them") now")
    }
}
