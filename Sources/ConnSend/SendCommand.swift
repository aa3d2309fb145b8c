import ArgumentParser
import ConnCommandKit
import ConnCore
import ConnInbox
import ConnOutbox
import Foundation

/// `conn send`: write the message to the outbox durably, then try to deliver it.
public struct SendCommand: ConnCommand {
    public static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Send a message: queued durably first, delivered now or as soon as the server is reachable.",
        discussion: HelpText.discussion(
            """
            The message is committed to the outbox (SQLite, synchronous) before any request, \
            then tried once. Its id is its Idempotency-Key on every attempt, so it is never \
            stored twice. What is not delivered now goes out with `conn outbox flush`. --wait \
            retries with backoff capped at a quarter of the wait. The text comes from --text, \
            --file, or standard input; on a terminal without them, $VISUAL or $EDITOR (else vi) \
            opens on a private temporary file that shows To, Subject and the message answered \
            (quoted, from the inbox cache); lines starting with # are left out, and a message \
            left empty sends nothing (exit 0). Stdout is one line, sent or not: the short id (a \
            prefix every outbox command takes), the state, the recipient and the subject, with \
            the server's uid once sent; one left queued has one line on stderr saying why and who \
            will deliver it. Scripts read the full id from --json (`conn send --json … | jq -r .id`).
            """,
            exitCodes: """
                0 without --wait, once the message is safely queued (sent or not; the output says \
                which), with --wait once it is sent; 65 rejected by the server (--wait); 75 still \
                waiting when the time ran out (--wait); 77 the server refused the credentials \
                (--wait); 64 a bad address, empty subject or missing text (nothing is written); \
                66 an unreadable --file (nothing is written); 69 the editor failed or could not \
                be started (nothing is written)
                """,
            examples: [
                .init("conn send --to ann@example.com --subject Hello --text 'See you at 5'", "Queue it, try it once; it goes out later if the server is away."),
                .init("conn send --to ann@example.com --subject Report --file report.txt --wait 2m", "Wait up to 2 minutes for the server to have it."),
                .init("conn send --to ann@example.com --subject Re: --text ok --reply-to 42 --json", "A reply to message 42; the queued message as JSON."),
            ]))

    @OptionGroup(title: "Global options") public var global: GlobalOptions

    @Option(help: ArgumentHelp("Recipient address (repeatable, or comma-separated).", valueName: "address"))
    var to: [String]

    @Option(help: "The subject line.")
    var subject: String

    @Option(help: ArgumentHelp("The text of the message.", valueName: "text"))
    var text: String?

    @Option(help: ArgumentHelp("Read the text from this file ('-' for standard input).", valueName: "path"), completion: .file())
    var file: String?

    @Option(name: .customLong("reply-to"), help: ArgumentHelp("The uid of the inbox message this one answers.", valueName: "uid"),
            completion: LiveCompletion.inboxUIDs)
    var replyTo: String?

    @Option(name: .long, defaultAsFlag: "30s", parsing: .next,
            help: ArgumentHelp("Keep retrying until the message is sent or failed, for up to this long (--wait alone: 30s).", valueName: "duration"))
    var wait: OptionalValueDuration? = nil

    public init() {}

    public func validate() throws {
        try wait?.check(option: "--wait")
    }

    public func run(in context: CommandContext) async throws {
        let recipients = try DraftReader.recipients(to), subject = try DraftReader.subject(subject)
        let responseToUid = try DraftReader.replyTo(replyTo)
        // On a terminal without --text or --file, the text is written in the editor; a message
        // left empty there is not an error: nothing is sent.
        let editor = context.terminal.standardOutputIsTerminal ? {
            try DraftEditor(to: recipients, subject: subject, replyTo: responseToUid, original: original(responseToUid, context: context),
                            environment: context.environment).edit()
        } : nil
        let body = try DraftReader.text(text: text, file: file, standardInputIsTerminal: context.terminal.standardInputIsTerminal, editor: editor)
        if text == nil, file == nil, context.terminal.standardInputIsTerminal, body.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            context.printer.note("nothing sent: the message was empty")
            return
        }
        // The message is for the server configured now, and for no other.
        let target = context.configuration.backEnd.map(OutboxTarget.init)
        let draft = OutboxDraft(to: recipients, subject: subject, text: body, responseToUid: responseToUid, target: target,
                                profile: context.configuration.profile)
        var store = try context.openOutbox()
        if let wait { store.fitBackoff(within: wait.duration) }
        let clock = ContinuousClock()
        let start = clock.now

        guard let backEnd = context.configuration.backEnd else {
            let message = try store.enqueue(draft, now: Date())
            context.printer.warning("no server is configured: message \(message.shortID) is queued; set one (--server, CONN_SERVER or `server:` in \(context.configuration.configFile)) and run `conn outbox flush`")
            var report = MessageReport(message)
            report.summaryOnly = true
            try context.printer.emit(report)
            if wait != nil { throw ConnError.configuration("--wait needs a server to deliver to") }
            return
        }
        if let pause = try store.pause() {
            let message = try store.enqueue(draft, now: Date())
            var report = MessageReport(message)
            report.summaryOnly = true  // the error on stderr says the rest, once
            try context.printer.emit(report)
            try FirstAttempt.message.paused(message, by: pause, context: context, waited: wait != nil)
            return
        }
        let message = try await HTTPTransport.with(configuration: context.configuration, logger: context.logger) { transport in
            let deliverer = OutboxDeliverer(store: store, transport: transport, url: backEnd.url(for: .messages),
                                            concurrency: 1, requestTimeout: FirstAttempt.timeout(context.configuration))
            return try await FirstAttempt.message.attempt(with: deliverer, wait: wait?.duration, from: start, context: context) { deliverer in
                try store.enqueue(draft, now: Date(), leaseTo: deliverer.owner, lease: deliverer.lease)
            }
        }
        // A message left waiting is the agent's from now on: hand it over, so it takes over at once.
        let agent = FirstAttempt.handOver(message, context: context)
        var report = MessageReport(message)
        report.agentPID = agent
        // Not sent (queued, waited in vain, refused): stdout is the summary line, as for one
        // sent; stderr says once why, and what to do or who sends it.
        report.summaryOnly = message.state != .sent
        try context.printer.emit(report)
        try FirstAttempt.message.explain(message, context: context, waited: wait != nil, agent: agent)
    }
}

extension SendCommand {
    /// The message answered, from the configured server's inbox copy, for the editor to quote
    /// (nil when not cached).
    func original(_ uid: String?, context: CommandContext) -> DraftEditor.Original? {
        guard let uid, let inbox = context.configuration.backEnd?.url(for: .inbox).absoluteString,
            let database = try? context.openDatabase(migrations: InboxMigrations.all),
            let message = try? InboxCache(database: database).message(uid: uid, inboxAt: inbox)
        else { return nil }
        return DraftEditor.Original(uid: uid, from: message.from, subject: message.subject, text: message.text)
    }
}
