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
            record by record before anything is stored.
            """,
            exitCodes: """
                0 stored (or not modified); 65 the answer is not an inbox (the cache is left as it \
                was, and the message names the record and field); 69 the server cannot be reached; \
                75 a timeout, or the server asks to try later (5xx, 408, 429); 77 the token was \
                refused (401/403)
                """,
            examples: [
                .init("conn inbox fetch", "Bring the cache up to date."),
                .init("conn inbox fetch --force --json", "Fetch it all again (no ETag); what changed as JSON."),
            ]))

    @OptionGroup public var global: GlobalOptions

    @Flag(help: "Fetch everything even if the server says nothing changed (skip If-None-Match).")
    var force = false

    public init() {}

    public func run(in context: CommandContext) async throws {
        let url = try context.requireBackEnd().url(for: .inbox)
        let cache = InboxCache(database: try context.openDatabase(migrations: InboxMigrations.all))
        var headers = [("Accept", "application/json")]
        if !force, let etag = cache.etag(for: url.absoluteString) { headers.append(("If-None-Match", etag)) }
        if context.terminal.standardErrorIsTerminal { context.printer.note("fetching \(url.absoluteString) …") }
        let clock = ContinuousClock()
        let start = clock.now
        let response = try await HTTPTransport.with(configuration: context.configuration, logger: context.logger) { transport in
            try await transport.send(HTTPExchangeRequest(url: url, headers: headers))
        }
        let now = Date()
        // Where the inbox really came from: same-origin redirects are followed (others refused).
        let source = (response.url ?? url).absoluteString
        let report: FetchReport
        switch (HTTPStatusClass(response.status), response.status) {
        case (.notModified, _):
            try cache.touch(source: source, at: now)
            report = FetchReport(source: source, notModified: true, summary: .init(fetched: 0, new: 0, updated: 0, unchanged: 0),
                                 elapsedMs: start.duration(to: clock.now).milliseconds)
        case (.success, 200):
            let readStart = clock.now
            let records = try InboxDocumentReader.read(response.body, source: source)
            let storeStart = clock.now
            context.logger.debug("read \(records.count) records (\(response.body.count) bytes) in \(readStart.duration(to: storeStart))")
            let summary = try cache.store(records, etag: response.header("ETag"), requested: url.absoluteString, source: source, at: now)
            context.logger.debug("stored them in \(storeStart.duration(to: clock.now))")
            report = FetchReport(source: source, notModified: false, summary: summary, elapsedMs: start.duration(to: clock.now).milliseconds)
        default:
            throw ConnError.unexpectedStatus(response.status, from: url, expected: "the inbox; the cache was left as it was")
        }
        try context.printer.emit(report)
    }
}

struct FetchReport: Encodable, TextRenderable {
    let source: String
    let notModified: Bool
    let fetched: Int
    let new: Int
    let updated: Int
    let unchanged: Int
    let elapsedMs: Double

    init(source: String, notModified: Bool, summary: InboxCache.StoreSummary, elapsedMs: Double) {
        self.source = source
        self.notModified = notModified
        (fetched, new, updated, unchanged) = (summary.fetched, summary.new, summary.updated, summary.unchanged)
        self.elapsedMs = elapsedMs
    }

    func renderText(style: TextStyle) -> String {
        if notModified { return "inbox unchanged since the last fetch (\(Int(elapsedMs)) ms)\n" }
        return "fetched \(fetched) messages: \(style.bold("\(new) new")), \(updated) updated, \(unchanged) unchanged (\(Int(elapsedMs)) ms)\n"
    }
}
