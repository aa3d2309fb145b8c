import ArgumentParser
import ConnCommandKit
import ConnCore
import Foundation

/// `conn outbox show ID`: one message in full, with its attempts.
public struct OutboxShowCommand: ConnCommand {
    public static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show one outbox message: its text, state, last error and every attempt.",
        discussion: HelpText.discussion(
            "",
            exitCodes: "0 shown; 69 no such id; 64 an ambiguous prefix",
            examples: [
                .init("conn outbox show 3f2a", "One message in full (any unambiguous id prefix)."),
                .init("conn outbox show 3f2a --json | jq .attemptLog", "Every attempt: when, by whom, with what outcome."),
            ]))

    @OptionGroup(title: "Global options") public var global: GlobalOptions

    @Argument(help: ArgumentHelp("The message's id (a unique prefix is enough).", valueName: "id"), completion: LiveCompletion.outboxIDs)
    var id: String

    public init() {}

    public func run(in context: CommandContext) async throws {
        let store = try context.openOutbox()
        try store.expireOverdue(now: Date())
        let message = try store.resolve([id])[0]
        var report = MessageReport(message, includeText: true, attemptLog: try store.attempts(id: message.id))
        report.configuredServer = context.configuredOrigin
        report.agentPID = context.runningAgent
        try context.printer.emit(report)
    }
}
