import ArgumentParser
import ConnCommandKit
import ConnCore
import Foundation

/// `conn inbox fetch`: GET the inbox resource and store it in the cache in one transaction.
public struct InboxFetchCommand: ConnCommand {
    public static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Fetch the inbox into the local cache (conditional: unchanged inboxes cost one 304).",
        discussion: HelpText.discussion(
            """
            Sends the cached ETag, so an unchanged inbox costs one 304. The answer is checked \
            record by record before anything is stored. A large inbox is downloaded to an unnamed \
            file beside the cache (it needs that much free disk, up to 2 GiB) and stored in \
            bounded memory: a million messages in under 64 MB.
            """,
            exitCodes: """
                0 stored (or not modified); 65 the answer is not an inbox (the cache is left as it \
                was, and the message names the record and field); 69 the server cannot be reached; \
                74 the disk is full (the cache is left as it was); \
                75 a timeout, or the server asks to try later (5xx, 408, 429); 77 the token was \
                refused (401/403)
                """,
            examples: [
                .init("conn inbox fetch", "Bring the cache up to date."),
                .init("conn inbox fetch --force --json", "Fetch it all again (no ETag); what changed as JSON."),
            ]))

    @OptionGroup(title: "Global options") public var global: GlobalOptions

    @Flag(help: "Fetch everything even if the server says nothing changed (skip If-None-Match).")
    var force = false

    public init() {}

    public func run(in context: CommandContext) async throws {
        let url = try context.requireURL(for: .inbox)
        let fetcher = InboxFetcher(url: url, database: try context.openDatabase(migrations: InboxMigrations.all))
        let line = ProgressLine(context)
        defer { line.finish() }
        line.update("fetching \(url.absoluteString) …", force: true)
        var progress: (@Sendable (InboxFetcher.Progress) -> Void)?
        if line.isEnabled { progress = { @Sendable step in line.update(InboxFetchCommand.describe(step), force: step.isPhaseStart) } }
        let outcome: InboxFetcher.Outcome
        do {
            outcome = try await HTTPTransport.with(configuration: context.configuration, logger: context.logger) { transport in
                try await fetcher.fetch(over: transport, conditional: !force, logger: context.logger, progress: progress)
            }
        } catch var error as ConnError where error.hint == nil && [.unavailable, .temporaryFailure].contains(error.exitStatus) {
            // The server could not be reached or answered: what to do next, and what still works.
            error.hint = "`conn probe` says which layer fails (`conn probe -v`, each rung); the copy fetched before still reads offline: `conn inbox list`."
            throw error
        }
        line.finish()  // before the summary takes its place
        // -q: nothing but errors, as `git fetch -q` (JSON is asked for, so it is printed).
        guard context.configuration.format != .text || context.printer.verbosity > .quiet else { return }
        try context.printer.emit(FetchReport(outcome))
    }

    /// The progress line's text for where the fetch is.
    static func describe(_ progress: InboxFetcher.Progress) -> String {
        switch progress {
        case .downloading(let received, let expected, let seconds):
            let rate = seconds > 0.05 ? " (\(ByteCount.text(Int(Double(received) / seconds)))/s)" : ""
            return "downloading the inbox: \(ByteCount.text(received))" + (expected.map { " of \(ByteCount.text($0))" } ?? "") + rate
        case .reading(let bytes):
            return "reading \(ByteCount.text(bytes)) of JSON…"
        case .storing(let records):
            return "storing \(records) message\(records == 1 ? "" : "s")…"
        }
    }
}

struct FetchReport: Encodable, TextRenderable {
    let source: String
    let notModified: Bool
    let fetched: Int
    let new: Int
    let updated: Int
    let unchanged: Int
    /// Records that repeated a uid of an earlier record of the document: kept beside it, flagged.
    let duplicates: Int
    /// Those uids, the first five.
    let duplicateUids: [String]
    let elapsedMs: Double

    init(_ outcome: InboxFetcher.Outcome) {
        source = outcome.source
        notModified = outcome.notModified
        let summary = outcome.summary
        (fetched, new, updated, unchanged) = (summary.fetched, summary.new, summary.updated, summary.unchanged)
        (duplicates, duplicateUids) = (summary.duplicates, summary.duplicateUids)
        elapsedMs = outcome.elapsedMs
    }

    func renderText(style: TextStyle) -> String {
        if notModified { return "inbox unchanged since the last fetch (\(TimeFormatting.duration(milliseconds: elapsedMs)))\n" }
        var text = "fetched \(fetched) messages: \(style.bold("\(new) new")), \(updated) updated, \(unchanged) unchanged (\(TimeFormatting.duration(milliseconds: elapsedMs)))\n"
        if duplicates > 0 {
            let uids = duplicateUids.map { TerminalSanitizer.sanitize($0, keepNewlines: false) }.joined(separator: ", ")
            text += style.yellow("\(duplicates) of them repeated the uid of an earlier one (uid \(uids)\(duplicates > duplicateUids.count ? ", …" : "")): ")
                + "kept beside it and flagged duplicateUid in `conn inbox thread`\n"
        }
        return text
    }
}
