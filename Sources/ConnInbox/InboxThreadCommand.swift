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

    @OptionGroup public var global: GlobalOptions

    @Argument(help: "The uid of any message in the conversation; an unambiguous prefix is enough.", completion: LiveCompletion.inboxUIDs)
    var uid: String

    @Flag(help: "Draw the tree with ASCII (|- `-) instead of box-drawing characters.") var ascii = false
    @Flag(help: "List the messages in date order instead of as a tree.") var flat = false
    @Option(name: .customLong("max-depth"), help: "Draw replies this deep at most; deeper ones are summarised.") var maxDepth = 12

    public init() {}

    public func validate() throws {
        guard maxDepth >= 1 else { throw ValidationError("--max-depth must be at least 1.") }
    }

    public func run(in context: CommandContext) async throws {
        let database = try context.openDatabase(migrations: InboxMigrations.all + OutboxMigrations.all)
        let copy = try InboxCopy.open(context, database: database)
        let root = try Self.resolveRoot(uid, in: copy.source.id, of: database)
        let thread = try ThreadView.load(root: root, in: copy.source.id, of: database)
        // Replies written here and not yet delivered belong to the conversation too.
        let outbox = OutboxStore(database: database, expiry: context.configuration.outboxExpiry, token: context.configuration.token)
        let waiting = try outbox.replies(to: thread.messages.map(\.uid)).map(ThreadReport.OutboxReply.init)
        let useASCII = ascii || !context.terminal.isUTF8
        var report = ThreadReport(view: thread, outbox: waiting, ascii: useASCII, flat: flat, maxDepth: maxDepth)
        report.width = TerminalSize.columns(environment: context.environment)
        try context.printer.emit(report)
    }

    /// The conversation root of `text` in the copy `sourceId`: an exact uid, an unambiguous uid
    /// prefix, or a missing parent's uid (a placeholder root).
    static func resolveRoot(_ text: String, in sourceId: Int64, of database: LocalDatabase) throws -> String {
        try database.writer.read { db in
            if let root = try String.fetchOne(db, sql: "SELECT threadRoot FROM inboxMessage WHERE sourceId = ? AND uid = ?", arguments: [sourceId, text]) {
                return root
            }
            if try Bool.fetchOne(db, sql: "SELECT EXISTS(SELECT 1 FROM inboxConversation WHERE sourceId = ? AND rootUid = ?)",
                                 arguments: [sourceId, text]) == true {
                return text
            }
            let pattern = InboxListCommand.escapeLike(text) + "%"
            let matches = try Row.fetchAll(db, sql: """
                SELECT uid, threadRoot FROM inboxMessage WHERE sourceId = ? AND uid LIKE ? ESCAPE '\\'
                UNION SELECT rootUid, rootUid FROM inboxConversation WHERE sourceId = ? AND missingParent AND rootUid LIKE ? ESCAPE '\\'
                ORDER BY 1 LIMIT 6
                """, arguments: [sourceId, pattern, sourceId, pattern])
            switch matches.count {
            case 1: return matches[0][1]
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

/// One conversation loaded from the cache, in display order.
struct ThreadView {
    struct Message: Encodable {
        let uid: String
        let parentUid: String?
        let depth: Int
        let placeholder: Bool
        let from: String
        let to: String
        let subject: String
        let text: String
        /// As the server sent it.
        let dateTime: String
        /// `dateTime` read as a date (relative words as of the fetch); nil when it cannot be read.
        let date: Date?
        let flags: [String]
        /// 2, 3… for the later records of a uid the server sent more than once (kept beside the
        /// message, which is its first record); null for the message itself.
        var copy: Int? = nil
    }
    let root: String
    let messages: [Message]  // depth-first, older siblings first
    let byDate: [Message]

    static func load(root: String, in sourceId: Int64, of database: LocalDatabase) throws -> ThreadView {
        let (rows, copyRows) = try database.writer.read { db in
            (try Row.fetchAll(db, sql: """
                SELECT uid, responseToUid, fromAddress, toAddress, subject, text, dateTime, sortKey, flags, parsedTime FROM inboxMessage
                WHERE sourceId = ? AND threadRoot = ? ORDER BY sortKey, arrival
                """, arguments: [sourceId, root]),
             try Row.fetchAll(db, sql: """
                SELECT d.uid, d.copy, d.fromAddress, d.toAddress, d.subject, d.text, d.dateTime FROM inboxDuplicate d
                JOIN inboxMessage m ON m.sourceId = d.sourceId AND m.uid = d.uid
                WHERE d.sourceId = ? AND m.threadRoot = ? ORDER BY d.uid, d.copy
                """, arguments: [sourceId, root]))
        }
        var copies: [String: [Row]] = [:]
        for row in copyRows { copies[row[0], default: []].append(row) }
        var stored: [String: Row] = [:]
        for row in rows { stored[row[0]] = row }
        let forest = ThreadBuilder.build(rows.enumerated().map { ThreadBuilder.Message(uid: $1[0], parentUid: $1[1], order: $0) })
        let ordered = forest.roots.flatMap { forest.walk(from: $0) }
        let messages = ordered.map { node -> Message in
            guard let row = stored[node.uid] else {
                return Message(uid: node.uid, parentUid: nil, depth: node.depth, placeholder: true, from: "", to: "", subject: "",
                               text: "", dateTime: "", date: nil, flags: ["notInCache"])
            }
            let flags = (row[8] as String).split(separator: ",").map(String.init)
            return Message(uid: node.uid, parentUid: node.parentUid, depth: node.depth, placeholder: false, from: row[2], to: row[3],
                           subject: row[4], text: row[5], dateTime: row[6], date: (row[9] as Double?).map(Date.init(timeIntervalSince1970:)),
                           flags: flags)
        }
        let order = Dictionary(uniqueKeysWithValues: rows.enumerated().map { ($1[0] as String, $0) })
        // Each copy after its message's replies, as a later sibling: nothing the server sent is
        // hidden, and the replies stay under the message they answer.
        var withCopies: [Message] = []
        var open: [(depth: Int, copies: [Message])] = []
        for message in messages {
            while let last = open.last, last.depth >= message.depth { withCopies += open.removeLast().copies }
            withCopies.append(message)
            guard !message.placeholder, let rows = copies[message.uid] else { continue }
            open.append((message.depth, rows.map { row in
                let dateTime: String = row[6]
                return Message(uid: message.uid, parentUid: message.parentUid, depth: message.depth, placeholder: false, from: row[2], to: row[3],
                               subject: row[4], text: row[5], dateTime: dateTime, date: DateTimeText.parse(dateTime, relativeTo: Date()),
                               flags: ["duplicateUid"], copy: row[1])
            }))
        }
        while let last = open.popLast() { withCopies += last.copies }
        // Stable: a copy stays after its message.
        let byDate = withCopies.filter { !$0.placeholder }.enumerated().sorted {
            (order[$0.element.uid]!, $0.offset) < (order[$1.element.uid]!, $1.offset)
        }.map(\.element)
        return ThreadView(root: root, messages: withCopies, byDate: byDate)
    }
}
