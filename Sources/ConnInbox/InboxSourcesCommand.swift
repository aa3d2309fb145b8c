import ArgumentParser
import ConnCommandKit
import ConnCore
import Foundation

/// `conn inbox sources`: the inboxes the cache holds a copy of, and when each was fetched.
public struct InboxSourcesCommand: ConnCommand {
    public static let configuration = CommandConfiguration(
        commandName: "sources", abstract: "List the inboxes the cache holds a copy of, and when each was fetched (works offline).",
        discussion: HelpText.discussion(
            """
            The cache keeps one copy per inbox URL: fetching another server's inbox leaves this \
            one's as it was, and `list` and `thread` read the configured server's copy only (with \
            no server configured, the latest fetched: marked so, and `shown` in JSON).
            """,
            exitCodes: "0 listed (an empty cache lists nothing)",
            examples: [
                .init("conn inbox sources", "Each cached inbox, the latest fetched first."),
                .init("conn inbox sources --json", "The same as JSON."),
            ]))

    @OptionGroup(title: "Global options") public var global: GlobalOptions

    public init() {}

    public func run(in context: CommandContext) async throws {
        let cache = InboxCache(database: try context.openDatabase(migrations: InboxMigrations.all))
        let inbox = context.configuration.url(for: .inbox)
        let configured = inbox.map(ResourceKey.of)
        let shown = try cache.sourceToRead(configured: inbox)?.id
        let entries = try cache.sources().map { source in
            InboxSourceList.Entry(inbox: source.isUnknown ? nil : source.requested, source: source.source, fetchedAt: source.fetchedAt,
                                  messageCount: try cache.messageCount(sourceId: source.id), configured: configured == source.key && !source.isUnknown,
                                  shown: source.id == shown)
        }
        try context.printer.emit(InboxSourceList(sources: entries, now: Date()))
    }
}

struct InboxSourceList: Encodable, TextRenderable {
    struct Entry: Encodable {
        /// The inbox URL asked for; null for a copy an older conn wrote without recording it.
        let inbox: String?
        /// Where the answer came from (after same-origin redirects).
        let source: String?
        let fetchedAt: Date?
        let messageCount: Int
        /// The configured server's inbox (or the full `resources.inbox` URL).
        let configured: Bool
        /// The copy `list` and `thread` read: the configured one; else, with no inbox configured,
        /// the latest fetched (or one an older conn wrote, until the next fetch).
        let shown: Bool
    }

    let sources: [Entry]
    let now: Date

    private enum CodingKeys: String, CodingKey { case sources }

    func renderText(style: TextStyle) -> String {
        if sources.isEmpty { return "the inbox cache is empty: `conn inbox fetch` fills it\n" }
        return sources.map { entry in
            let name = TerminalSanitizer.sanitize(entry.inbox ?? "(source unknown: written by an older conn)", keepNewlines: false)
            let when = entry.fetchedAt.map { "fetched " + TimeFormatting.ago(seconds: now.timeIntervalSince($0)) } ?? "never fetched"
            let count = "\(entry.messageCount) message\(entry.messageCount == 1 ? "" : "s")"
            let mark = entry.configured ? "  (configured)" : entry.shown ? "  (read by list and thread: \(entry.inbox == nil ? "written by an older conn" : "the latest fetched, no server is configured"))" : ""
            return (entry.shown ? style.bold(name) : name) + mark + "\n  " + style.dim("\(count), \(when)")
        }.joined(separator: "\n") + "\n"
    }
}
