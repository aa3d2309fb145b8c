import ArgumentParser
import ConnCommandKit
import ConnCore
import Foundation

/// `conn outbox list`: the queue, oldest first.
public struct OutboxListCommand: ConnCommand {
    public static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List outbox messages, oldest first (works offline).",
        discussion: HelpText.discussion(
            "",
            examples: [
                .init("conn outbox list", "Every message, its state and last error."),
                .init("conn outbox list --state pending --json", "What still waits, for a script."),
            ]))

    @OptionGroup public var global: GlobalOptions

    @Option(help: ArgumentHelp("Only messages in this state: pending, sending, sent, failed (repeatable).", valueName: "state"))
    var state: [OutboxMessage.State] = []

    public init() {}

    public func run(in context: CommandContext) async throws {
        let store = try context.openOutbox()
        try store.expireOverdue(now: Date())
        let messages = try store.list(states: state.isEmpty ? nil : state)
        let agent = context.runningAgent
        try context.printer.emit(OutboxListReport(messages: messages.map {
            var report = MessageReport($0)
            report.agentPID = agent
            report.configuredServer = context.configuredOrigin
            return report
        },
                                                  pause: try store.pause()))
    }
}

extension OutboxMessage.State: ExpressibleByArgument {}

struct OutboxListReport: Encodable, TextRenderable {
    let messages: [MessageReport]
    /// Set while the queue is paused because the server refused the credentials.
    let pause: AuthPause?

    func renderText(style: TextStyle) -> String {
        var text = ""
        if let pause {
            text += style.red("paused") + ": the server refused the credentials (\(TerminalSanitizer.sanitize(pause.message, keepNewlines: false))); fix the token, or run `conn outbox resend --failed`\n"
        }
        if messages.isEmpty { return text + "the outbox is empty\n" }
        return text + messages.map { $0.renderText(style: style) }.joined()
    }
}
