import ArgumentParser
import ConnCommandKit
import ConnCore
import Foundation

/// `conn outbox resend`: failed (or waiting) messages back in the queue, same id and key.
public struct OutboxResendCommand: ConnCommand {
    public static let configuration = CommandConfiguration(
        commandName: "resend",
        abstract: "Put failed messages back in the queue (same id, same Idempotency-Key) and try them now.",
        discussion: HelpText.discussion(
            """
            The message keeps its id, so a resend can never store it twice. Resending also ends \
            a pause for refused credentials. Without a server, or when the attempt fails, the \
            message waits in the queue.
            """,
            exitCodes: "0 resent (sent or queued); 65 a message was already sent; 69 no such id; 75 a message is being sent right now",
            examples: [
                .init("conn outbox resend 3f2a", "Resend one failed message (any unambiguous id prefix)."),
                .init("conn outbox resend --failed --json", "Resend every failed message; the outcome as JSON."),
            ]))

    @OptionGroup(title: "Global options") public var global: GlobalOptions
    @OptionGroup var selection: OutboxSelection

    public init() {}

    public func run(in context: CommandContext) async throws {
        let store = try context.openOutbox()
        let chosen = try selection.messages(in: store)
        let requeued = try store.resend(chosen.map(\.id), now: Date())
        var reports = requeued
        if !requeued.isEmpty, let backEnd = context.configuration.backEnd {
            let tally = try await HTTPTransport.with(configuration: context.configuration, logger: context.logger) { transport in
                let deliverer = OutboxDeliverer(store: store, transport: transport, url: backEnd.url(for: .messages), requestTimeout: context.configuration.timeout)
                var tally = FlushTally()
                try await deliverer.flushOnce(.ids(requeued.map(\.id)), tally: &tally)
                return tally
            }
            if let error = tally.lastRetryError { context.printer.note("still queued: \(TerminalSanitizer.sanitize(error, keepNewlines: false))") }
            reports = try requeued.compactMap { try store.message(id: $0.id) }
        }
        var report = OutboxListReport(messages: reports.map { MessageReport($0) }, pause: try store.pause())
        if chosen.isEmpty {
            // --failed with none failed: say what there is instead of "the outbox is empty".
            report.whenNone = "no failed message to resend \(try store.holdingBesidesFailed())"
        }
        try context.printer.emit(report)
    }
}
