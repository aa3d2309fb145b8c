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
            let trimmed = Self.trimmingWhitespace(address)
            if !trimmed.isEmpty && !participants.contains(where: { $0 == trimmed }) { participants.append(String(trimmed)) }
        }
        for member in members {
            add(Substring(member.from))
            for address in member.to.split(separator: ",") { add(address) }
        }
        self.rootUid = rootUid
        subject = members[0].subject
        self.participants = participants
        messageCount = members.count
        lastSortKey = sortKeys[latest]
        lastDateTime = members[latest].dateTime
        snippet = String(members[latest].text.prefix(120))
        self.missingParent = missingParent
    }

    private static func trimmingWhitespace(_ text: Substring) -> Substring {
        var start = text.startIndex, end = text.endIndex
        while start < end, text[start].isWhitespace { text.formIndex(after: &start) }
        while end > start, text[text.index(before: end)].isWhitespace { text.formIndex(before: &end) }
        return text[start..<end]
    }

    enum CodingKeys: String, CodingKey {
        case rootUid, subject, participants, messageCount, lastDateTime, lastDate, snippet, missingParent
    }

    /// The latest message's parsed time, for a query over the conversation table `c`.
    static let lastDateColumn = "(SELECT m.parsedTime FROM inboxMessage m WHERE m.threadRoot = c.rootUid AND m.sortKey = c.lastSortKey LIMIT 1)"

    /// The table's columns, in the order `init(row:)` reads them.
    static let columns = "rootUid, subject, participants, messageCount, lastSortKey, lastDateTime, snippet, missingParent"

    init(row: Row) {
        rootUid = row[0]
        subject = row[1]
        participants = (row[2] as String).split(separator: ",").map { String(Self.trimmingWhitespace($0)) }
        messageCount = row[3]
        lastSortKey = row[4]
        lastDateTime = row[5]
        snippet = row[6]
        missingParent = row[7]
        if row.count > 8, let seconds = row[8] as Double? { lastDate = Date(timeIntervalSince1970: seconds) }
    }

    func insert(with statement: Statement) throws {
        try statement.execute(arguments: [rootUid, subject, participants.joined(separator: ", "), messageCount, lastSortKey, lastDateTime, snippet, missingParent])
    }
}
