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
            exitCodes: "0 listed (an empty outbox lists nothing); 64 a bad --state; 69, 74 or 77 the local database cannot be used (unreadable, a disk error, no permission)",
            examples: [
                .init("conn outbox list", "What waits and what failed, with the last error."),
                .init("conn outbox list --all", "Sent messages too (kept for outboxKeepSent, 7 days by default)."),
                .init("conn outbox list --state pending --json", "What still waits, for a script."),
                .init("conn outbox list --limit 1000 --after 7388c915", "The next page of a long queue: the items after 7388c915."),
            ]))

    @OptionGroup(title: "Global options") public var global: GlobalOptions

    @Option(help: ArgumentHelp("Only messages in this state: pending, sending, sent, failed (repeatable).", valueName: "state"))
    var state: [OutboxMessage.State] = []

    @Flag(help: "Sent messages too (without --state, the list shows what waits and what failed).")
    var all = false

    @Option(help: ArgumentHelp("At most this many items (1–1000000); when more are left, the JSON's next and a note on stderr say where the next page starts.",
                               valueName: "count"))
    var limit: Int?

    @Option(help: ArgumentHelp("Only items after this one in the list's order (an id or a unique prefix): the next page.", valueName: "id"),
            completion: LiveCompletion.outboxIDs)
    var after: String?

    public init() {}

    public func validate() throws {
        if let limit, !(1...1_000_000).contains(limit) {
            throw ValidationError("--limit \(limit) is out of range: give 1 to 1000000 items a page")
        }
    }

    public func run(in context: CommandContext) async throws {
        let store = try context.openOutbox()
        try store.expireOverdue(now: Date())
        // What needs attention by default; sent messages on request, and counted when left out.
        let states: [OutboxMessage.State]? = !state.isEmpty ? state : all ? nil : [.pending, .sending, .failed]
        let afterID = try after.map { try store.resolve([$0])[0].id }
        // One more than the page, to know whether another page follows.
        var messages = try store.list(states: states, after: afterID, limit: limit.map { $0 + 1 })
        var next: String?
        if let limit, messages.count > limit {
            messages.removeLast(messages.count - limit)
            next = messages.last?.id
        }
        let sentNotShown = states.map { $0.contains(.sent) } ?? true ? 0 : (try store.count(.sent))
        let agent = context.runningAgent
        let configuredServer = context.configuredOrigin  // once: it builds the server's URLs
        var report = OutboxListReport(messages: messages.map {
            var report = MessageReport($0)
            report.agentPID = agent
            report.configuredServer = configuredServer
            return report
        }, pause: try store.pause())
        report.sentNotShown = sentNotShown
        report.next = next
        try context.printer.emit(report)
        if context.configuration.format == .text, let next {
            var again = ["conn outbox list"] + state.map { "--state \($0.rawValue)" } + (all ? ["--all"] : [])
            again += ["--limit \(limit!)", "--after \(next)"]
            context.printer.note("more after this page: \(again.joined(separator: " "))")
        }
        if context.configuration.format == .text, sentNotShown > 0, state.isEmpty {
            context.printer.note("\(sentNotShown) sent message\(sentNotShown == 1 ? "" : "s") not shown — `--all` (kept for \(TimeFormatting.duration(context.configuration.outboxKeepSent)))")
        }
    }
}

extension OutboxMessage.State: NamedValueArgument {}

struct OutboxListReport: Encodable, TextRenderable, SchemaVersioned {
    /// 2: an item may be a request (MessageReport's 2).
    static let schemaVersion = 2
    let messages: [MessageReport]
    /// Set while the queue is paused because the server refused the credentials.
    let pause: AuthPause?
    /// Sent messages left out of `messages` (`outbox list` without --all or --state).
    var sentNotShown = 0
    /// What text says when there are no messages, if not the list's own words (`resend
    /// --failed` with none failed).
    var whenNone: String?
    /// `--limit`: the id to pass to `--after` for the next page; nil when the list is whole.
    var next: String?

    private enum CodingKeys: String, CodingKey { case messages, pause, sentNotShown, next }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(messages, forKey: .messages)
        try container.encode(pause, forKey: .pause)  // null when not paused
        try container.encode(sentNotShown, forKey: .sentNotShown)
        try container.encode(next, forKey: .next)  // null when nothing follows
    }

    func renderText(style: TextStyle) -> String {
        var text = ""
        if let pause {
            text += style.red("paused") + ": \(pause.byProxy ? "the proxy wants credentials" : "the server refused the credentials") (\(TerminalSanitizer.sanitize(pause.message, keepNewlines: false))); fix \(pause.byProxy ? "the proxy's user and password" : "the token"), or run `conn outbox resend --failed`\n"
        }
        if messages.isEmpty { return text + (whenNone ?? (sentNotShown > 0 ? "nothing waits, nothing failed" : "the outbox is empty")) + "\n" }
        return text + messages.map { $0.renderText(style: style) }.joined()
    }
}
