import ArgumentParser
import ConnCommandKit
import ConnCore
import ConnOutbox
import Foundation
import GRDB

/// `conn inbox thread UID`: one conversation as a tree (or in date order), full text. No network.
public struct InboxThreadCommand: ConnCommand {
    public static let configuration = CommandConfiguration(
        commandName: "thread", abstract: "Show the conversation that holds a message, as a tree (works offline).",
        discussion: HelpText.discussion(
            "",
            exitCodes: "0 shown; 69 no message with that uid in the cache; 64 an ambiguous prefix",
            examples: [
                .init("conn inbox thread 42", "The conversation message 42 is in, as a tree."),
                .init("conn inbox thread 42 --flat --ascii", "The same in date order, in plain ASCII."),
            ]))

    @OptionGroup(title: "Global options") public var global: GlobalOptions

    @Argument(help: "The uid of any message in the conversation; an unambiguous prefix is enough.", completion: LiveCompletion.inboxUIDs)
    var uid: String

    @Flag(help: "Draw the tree with ASCII (|- `-) instead of box-drawing characters.") var ascii = false
    @Flag(help: "List the messages in date order instead of as a tree.") var flat = false
    @Option(name: .customLong("max-depth"),
            help: "Draw replies this deep at most; deeper ones are summarised. Past 12 the tree stops indenting (sooner on a narrow terminal) and marks the depth (↳ 57). A message asked for below it is shown with the path to it collapsed.")
    var maxDepth = 12

    public init() {}

    public func validate() throws {
        guard maxDepth >= 1 else { throw ValidationError("--max-depth must be at least 1.") }
    }

    public func run(in context: CommandContext) async throws {
        let database = try context.openDatabase(migrations: InboxMigrations.all + OutboxMigrations.all)
        let copy = try InboxCopy.open(context, database: database)
        let (root, asked) = try Self.resolve(uid, in: copy.source.id, of: database)
        let thread = try ThreadView.load(root: root, in: copy.source.id, of: database)
        // Replies written here and not yet delivered belong to the conversation too.
        let outbox = OutboxStore(database: database, expiry: context.configuration.outboxExpiry, token: context.configuration.outboxPauseIdentity)
        let undelivered = try outbox.undeliveredReplies()
        let inThread = undelivered.isEmpty ? [] : Set(thread.uids)
        let waiting = undelivered.filter { inThread.contains($0.responseToUid ?? "") }.map(ThreadReport.OutboxReply.init)
        let useASCII = ascii || !context.terminal.isUTF8
        var report = ThreadReport(view: thread, outbox: waiting, ascii: useASCII, flat: flat, maxDepth: maxDepth)
        report.width = TerminalSize.columns(environment: context.environment)
        report.focus = thread.index(of: asked)
        try context.printer.emit(report)
    }

    /// The conversation root of `text` in the copy `sourceId`, and the uid asked for: an exact
    /// uid, an unambiguous uid prefix, or a missing parent's uid (a placeholder root).
    static func resolve(_ text: String, in sourceId: Int64, of database: LocalDatabase) throws -> (root: String, uid: String) {
        try database.writer.read { db in
            if let root = try String.fetchOne(db, sql: "SELECT threadRoot FROM inboxMessage WHERE sourceId = ? AND uid = ?", arguments: [sourceId, text]) {
                return (root, text)
            }
            if try Bool.fetchOne(db, sql: "SELECT EXISTS(SELECT 1 FROM inboxConversation WHERE sourceId = ? AND rootUid = ?)",
                                 arguments: [sourceId, text]) == true {
                return (text, text)
            }
            let pattern = InboxListCommand.escapeLike(text) + "%"
            let matches = try Row.fetchAll(db, sql: """
                SELECT uid, threadRoot FROM inboxMessage WHERE sourceId = ? AND uid LIKE ? ESCAPE '\\'
                UNION SELECT rootUid, rootUid FROM inboxConversation WHERE sourceId = ? AND missingParent AND rootUid LIKE ? ESCAPE '\\'
                ORDER BY 1 LIMIT 6
                """, arguments: [sourceId, pattern, sourceId, pattern])
            switch matches.count {
            case 1: return (matches[0][1], matches[0][0])
            case 0:
                let empty = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM inboxMessage WHERE sourceId = ?", arguments: [sourceId]) == 0
                throw ConnError.unavailable(.noSuchMessage, "no message with uid '\(TerminalSanitizer.sanitize(text))' in the cache",
                                            hint: empty ? "The cache is empty: run `conn inbox fetch`." : "`conn inbox list` shows the conversations and their uids.")
            default:
                let shown = matches.prefix(5).map { $0[0] as String }.joined(separator: ", ")
                throw ConnError.usage("uid prefix '\(text)' matches several messages: \(shown)\(matches.count > 5 ? ", …" : "")", hint: "Give more of the uid.")
            }
        }
    }
}
