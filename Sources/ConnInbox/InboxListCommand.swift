import ArgumentParser
import ConnCommandKit
import ConnCore
import Foundation
import GRDB

/// `conn inbox list`: conversations from the cache, newest first. No network.
public struct InboxListCommand: ConnCommand {
    public static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List conversations from the cache, newest first (works offline).",
        discussion: HelpText.discussion(
            "",
            exitCodes: "0 listed; 69 no cached copy of the configured server's inbox (run conn inbox fetch); 64 a bad --limit, --offset, --since or --until",
            examples: [
                .init("conn inbox list", "The 20 newest conversations."),
                .init("conn inbox list --from ann@ --since yesterday --json", "Conversations with a message from ann since yesterday, as JSON."),
                .init("conn inbox list --since 7d --all", "Every conversation active in the last seven days."),
            ]))

    @OptionGroup(title: "Global options") public var global: GlobalOptions

    @Option(help: "How many conversations to show.") var limit = 20
    @Flag(help: "Show every conversation that matches (no --limit).") var all = false
    @Flag(help: "Only ASCII in the text (- and ... for · and …), as without a UTF-8 locale.") var ascii = false
    @Option(help: "How many to skip first.") var offset = 0
    @Option(help: ArgumentHelp("Only conversations with a message from this address (part of it is enough).", valueName: "address")) var from: String?
    @Option(help: ArgumentHelp("Only conversations whose subject or text contains this.", valueName: "text")) var search: String?
    @Option(help: ArgumentHelp("Only conversations active since then: a date (ISO 8601, RFC 2822, today, yesterday) or a time ago (7d, 36h, 90m).", valueName: "when")) var since: String?
    @Option(help: ArgumentHelp("Only conversations last active before then: a date or a time ago, as --since.", valueName: "when")) var until: String?

    public init() {}

    public func validate() throws {
        guard limit > 0, offset >= 0 else { throw ValidationError("--limit must be positive and --offset not negative.") }
        for (option, value) in [("--since", since), ("--until", until)] {
            if let value, Self.moment(value, now: Date()) == nil {
                throw ValidationError("\(option) '\(value)' is neither a date nor a time ago; use 2026-11-01, 2026-11-01T10:00:00Z, yesterday, 7d or 36h.")
            }
        }
    }

    /// A date as conn reads dates, or a time ago as conn reads durations (with its unit: `7d`,
    /// `36h`; a bare number would be a year or seconds, so it is taken as a date only).
    static func moment(_ text: String, now: Date) -> Date? {
        if let date = DateTimeText.parse(text, relativeTo: now) { return date }
        let trimmed = text.trimmingBlanks()
        guard trimmed.last?.isLetter == true, let ago = DurationParser.parse(trimmed) else { return nil }
        return now.addingTimeInterval(-ago.seconds)
    }

    public func run(in context: CommandContext) async throws {
        let copy = try InboxCopy.open(context, database: try context.openDatabase(migrations: InboxMigrations.all))
        var conditions = ["c.sourceId = ?"]
        var arguments: StatementArguments = [copy.source.id]
        if let from {
            conditions.append("EXISTS (SELECT 1 FROM inboxMessage m WHERE m.sourceId = c.sourceId AND m.threadRoot = c.rootUid AND m.fromAddress LIKE ? ESCAPE '\\')")
            arguments += ["%" + Self.escapeLike(from) + "%"]
        }
        if let search {
            conditions.append("EXISTS (SELECT 1 FROM inboxMessage m WHERE m.sourceId = c.sourceId AND m.threadRoot = c.rootUid AND (m.subject LIKE ? ESCAPE '\\' OR m.text LIKE ? ESCAPE '\\'))")
            arguments += ["%" + Self.escapeLike(search) + "%", "%" + Self.escapeLike(search) + "%"]
        }
        let now = Date()
        if let since, let date = Self.moment(since, now: now) {
            conditions.append("c.lastSortKey >= ?")
            arguments += [date.timeIntervalSince1970]
        }
        if let until, let date = Self.moment(until, now: now) {
            conditions.append("c.lastSortKey < ?")
            arguments += [date.timeIntervalSince1970]
        }
        let filter = "WHERE " + conditions.joined(separator: " AND ")
        let sql = """
            SELECT \(ConversationRecord.columns), \(ConversationRecord.lastDateColumn) FROM inboxConversation c
            \(filter) ORDER BY lastSortKey DESC, rootUid LIMIT ? OFFSET ?
            """
        let statementArguments = arguments + [all ? -1 : limit, offset]
        let filterArguments = arguments
        let unfiltered = conditions.count == 1
        let (rows, total) = try copy.cache.database.writer.read { db in
            // Unfiltered, the count the fetch kept (counting a million conversations takes 26 ms).
            let kept = unfiltered ? try Int.fetchOne(db, sql: "SELECT conversationCount FROM inboxSource WHERE id = ?", arguments: [copy.source.id]) : nil
            return (try Row.fetchAll(db, sql: sql, arguments: statementArguments),
                    try kept ?? Int.fetchOne(db, sql: "SELECT COUNT(*) FROM inboxConversation c \(filter)", arguments: filterArguments) ?? 0)
        }
        let conversations = rows.map(ConversationRecord.init(row:))
        if context.configuration.format == .text {
            let age = copy.source.fetchedAt.map { ", fetched " + TimeFormatting.ago(seconds: Date().timeIntervalSince($0)) } ?? ""
            let why = copy.reason == .latestFetched ? " — the latest fetched, as no server is configured (--server or CONN_SERVER chooses; `conn inbox sources` lists the copies)" : ""
            context.printer.note("cache of \(copy.source.name)\(age)\(why)")
        }
        var list = ConversationList(conversations: conversations, total: total, cacheFetchedAt: copy.source.fetchedAt, cacheSource: copy.source.source,
                                    cacheChosen: copy.reason)
        list.width = TerminalSize.columns(environment: context.environment)
        list.ascii = ascii || !context.terminal.isUTF8
        try context.printer.emit(list)
        // A list never hides what it leaves out.
        if context.configuration.format == .text, conversations.count < total {
            let shown = conversations.isEmpty ? "none" : "\(offset + 1)–\(offset + conversations.count)"
            context.printer.note("\(shown) of \(total) conversations — `--limit N`, `--offset N` or `--all` for the others")
        }
    }

    static func escapeLike(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
    }
}

struct ConversationList: Encodable, TextRenderable {
    let conversations: [ConversationRecord]
    /// How many conversations match, of which `conversations` are the page shown.
    let total: Int
    let cacheFetchedAt: Date?
    /// Where the copy was fetched from; null for a copy an older conn wrote without saying.
    let cacheSource: String?
    /// Why this copy: the configured inbox's, an older conn's, or the latest fetched (no server).
    let cacheChosen: InboxCopy.Reason
    /// The text's layout (not in JSON): the terminal's width, and ASCII only where the locale
    /// is not UTF-8.
    var width = 80
    var ascii = false

    private enum CodingKeys: String, CodingKey { case conversations, total, cacheFetchedAt, cacheSource, cacheChosen }

    func renderText(style: TextStyle) -> String {
        if conversations.isEmpty { return "no conversations match\n" }
        let ellipsis = ascii ? "..." : "…"
        return conversations.map { conversation in
            let clean = { TerminalSanitizer.sanitize($0, keepNewlines: false) }
            let count = conversation.messageCount > 1 ? " (\(conversation.messageCount))" : ""
            // Local and short where the server's text is a date; its own words otherwise.
            let shown = conversation.lastDate.flatMap { DateTimeText.isRelativeWord(conversation.lastDateTime) ? nil : style.forPeople($0) }
            let date = FittedText.cut(shown ?? clean(conversation.lastDateTime), to: max(10, width / 3), ellipsis: ellipsis)
            // The subject gives way first, so the count and the date stay on the line.
            let subject = FittedText.cut(clean(conversation.subject.isEmpty ? "(no subject)" : conversation.subject),
                                   to: width - 1 - count.count - 2 - date.count, ellipsis: ellipsis)
            let head = "\(style.bold(subject))\(style.dim(count))  \(style.dim(date))"
            let uid = "uid \(clean(conversation.rootUid))"
            let people = FittedText.participants(conversation.participants.map(clean), fitting: width - 1 - 2 - 3 - uid.count)
            let snippet = FittedText.cut(clean(conversation.snippet), to: width - 1 - 2, ellipsis: ellipsis)
            return "\(head)\n  \(people) \(ascii ? "-" : "·") \(style.dim(uid))\n  \(snippet)"
        }.joined(separator: "\n") + "\n"
    }
}
