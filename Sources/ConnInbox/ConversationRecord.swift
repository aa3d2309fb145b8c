import ConnCore
import ConnProtocol
import Foundation
import GRDB

/// A row of the conversation table: what `conn inbox list` shows without reading the messages.
/// Its JSON (in `list --json`) leaves out the sort key, which only orders the table.
struct ConversationRecord: Equatable, Encodable {
    /// What a conversation's summary reads of each of its messages.
    struct Fields: Equatable {
        var from, to, subject, text, dateTime: String

        init(from: String, to: String, subject: String, text: String, dateTime: String) {
            (self.from, self.to, self.subject, self.text, self.dateTime) = (from, to, subject, text, dateTime)
        }

        init(_ email: Email) {
            self.init(from: email.from, to: email.to, subject: email.subject, text: email.text, dateTime: email.dateTime)
        }
    }

    var rootUid: String
    /// The first message's subject.
    var subject: String
    /// Senders and recipients in order of first appearance.
    var participants: [String]
    var messageCount: Int
    var lastSortKey: Double
    /// The latest message's `dateTime`, as the server sent it.
    var lastDateTime: String
    /// That text read as a date (relative words such as "Today" as of when it was fetched); nil
    /// when it cannot be read. Not a column: `list` looks it up (`lastDateColumn`).
    var lastDate: Date?
    /// The start of the latest message's text.
    var snippet: String
    /// The conversation starts with a reply whose parent is not in the cache.
    var missingParent: Bool

    /// - Parameters:
    ///   - members: the conversation's messages in display order (at least one).
    ///   - sortKeys: their sort keys, in the same order.
    init(rootUid: String, members: [Fields], sortKeys: [Double], missingParent: Bool) {
        precondition(!members.isEmpty && members.count == sortKeys.count)
        let latest = sortKeys.indices.max { sortKeys[$0] < sortKeys[$1] }!
        var participants: [String] = []
        // Most conversations have a handful of people: a linear search beats hashing them.
        func add(_ address: Substring) {
            let trimmed = address.trimmingWhitespace()
            if !trimmed.isEmpty && !participants.contains(where: { $0 == trimmed }) { participants.append(String(trimmed)) }
        }
        for member in members {
            add(Substring(member.from))
            for address in Self.addresses(in: member.to) { add(address) }
        }
        self.rootUid = rootUid
        subject = members[0].subject
        self.participants = participants
        messageCount = members.count
        lastSortKey = sortKeys[latest]
        lastDateTime = members[latest].dateTime
        snippet = Self.snippet(of: members[latest].text)
        self.missingParent = missingParent
    }

    // One conversation summary per conversation of a fetch: the three helpers below take the
    // bytes when the text is ASCII, where a byte is a Character (but for "\r\n", kept out),
    // and walk Characters otherwise.

    /// The first 120 Characters of a message's text.
    static func snippet(of text: String) -> String {
        let length = 120
        let utf8 = text.utf8
        if utf8.count <= length { return text }
        // The 121st byte is checked too: a non-ASCII one could extend the 120th Character.
        let head = utf8.prefix(length + 1)
        if head.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "\r") }) {
            return String(text[..<utf8.index(utf8.startIndex, offsetBy: length)])
        }
        return String(text.prefix(length))
    }

    /// A `to` field's addresses: split at commas.
    static func addresses(in text: String) -> [Substring] {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            // Split at the comma's byte: comma is ASCII, so its index is a Character boundary here.
            var parts: [Substring] = []
            var start = text.startIndex
            var index = text.utf8.startIndex
            while index < text.utf8.endIndex {
                if text.utf8[index] == UInt8(ascii: ",") {
                    if start < index { parts.append(text[start..<index]) }
                    start = text.utf8.index(after: index)
                }
                index = text.utf8.index(after: index)
            }
            if start < text.endIndex { parts.append(text[start...]) }
            return parts
        }
        return text.split(separator: ",")
    }

    enum CodingKeys: String, CodingKey {
        case rootUid, subject, participants, messageCount, lastDateTime, lastDate, snippet, missingParent
    }

    /// The latest message's parsed time, for a query over the conversation table `c`.
    static let lastDateColumn = "(SELECT m.parsedTime FROM inboxMessage m WHERE m.sourceId = c.sourceId AND m.threadRoot = c.rootUid AND m.sortKey = c.lastSortKey LIMIT 1)"

    /// The table's columns, in the order `init(row:)` reads them.
    static let columns = "rootUid, subject, participants, messageCount, lastSortKey, lastDateTime, snippet, missingParent"

    init(row: Row) {
        rootUid = row[0]
        subject = row[1]
        participants = (row[2] as String).split(separator: ",").map { String($0.trimmingWhitespace()) }
        messageCount = row[3]
        lastSortKey = row[4]
        lastDateTime = row[5]
        snippet = row[6]
        missingParent = row[7]
        if row.count > 8, let seconds = row[8] as Double? { lastDate = Date(timeIntervalSince1970: seconds) }
    }

    func insert(with statement: DirectStatement, sourceId: Int64) throws {
        try statement.bind(1, rootUid)
        try statement.bind(2, subject)
        try statement.bind(3, participants.joined(separator: ", "))
        try statement.bind(4, messageCount)
        try statement.bind(5, lastSortKey)
        try statement.bind(6, lastDateTime)
        try statement.bind(7, snippet)
        try statement.bind(8, missingParent ? 1 : 0)
        try statement.bind(9, sourceId)
        try statement.run()
    }
}
