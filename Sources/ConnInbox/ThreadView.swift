import ConnCore
import Foundation
import GRDB

/// One conversation loaded from the cache, in display order (depth first, older siblings first;
/// a uid's later copies after its message's replies), and in date order for `--flat`.
///
/// Compact, so a 100,000-message chain fits in a few tens of MB: each message's text fields
/// are kept in one string, and a `Message` is made only when it is printed.
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

    /// A stored record: a message's row, or one of its copies.
    private struct Record {
        var uid: String
        var flags: String
        /// Its from, to, subject, text and dateTime in `fields`.
        var location: FieldStore.Location
        /// The parsed dateTime; NaN where it could not be read.
        var parsedTime: Double
        /// 2, 3… for a copy; 0 for the message.
        var copy: Int32
    }

    /// A line of the display: a record, or a placeholder for a parent that is not cached.
    private struct Entry {
        /// Index in `records`, or -1 - placeholder index.
        var record: Int32
        var depth: Int32
        /// Index in `entries` of the parent's entry; -1 for a root.
        var parent: Int32
    }

    let root: String
    private let records: [Record]
    private let fields: FieldStore
    private let placeholderUids: [String]
    private let entries: [Entry]
    /// Indices in `entries` of the messages (no placeholders) in date order.
    private let dateOrder: [Int32]

    var count: Int { entries.count }
    var depths: [Int] { entries.map { Int($0.depth) } }
    /// Every uid of the conversation (copies once).
    var uids: [String] { records.filter { $0.copy == 0 }.map(\.uid) }
    /// The first real message's subject.
    var subject: String {
        guard let first = entries.first(where: { $0.record >= 0 }) else { return "" }
        return message(first).subject
    }

    /// The display's `index`th line.
    func message(at index: Int) -> Message { message(entries[index]) }
    func isPlaceholder(at index: Int) -> Bool { entries[index].record < 0 }
    func uid(at index: Int) -> String { uid(of: entries[index]) }
    func depth(at index: Int) -> Int { Int(entries[index].depth) }
    /// The display index of the message's parent; nil for the root.
    func parentIndex(at index: Int) -> Int? { entries[index].parent < 0 ? nil : Int(entries[index].parent) }
    /// The display index of `uid` (its first copy), if it is in the conversation.
    func index(of uid: String) -> Int? { (0..<count).first { self.uid(at: $0) == uid } }
    /// The messages in date order, as display indices.
    var byDate: [Int] { dateOrder.map(Int.init) }

    private func message(_ entry: Entry) -> Message {
        let parentUid = entry.parent < 0 ? nil : uid(of: entries[Int(entry.parent)])
        guard entry.record >= 0 else {
            return Message(uid: uid(of: entry), parentUid: nil, depth: Int(entry.depth), placeholder: true, from: "", to: "", subject: "",
                           text: "", dateTime: "", date: nil, flags: ["notInCache"])
        }
        let record = records[Int(entry.record)]
        let fields = fields.fields(at: record.location)
        let date = record.parsedTime.isNaN
            ? (record.copy != 0 ? DateTimeText.parse(fields[4], relativeTo: Date()) : nil) : Date(timeIntervalSince1970: record.parsedTime)
        return Message(uid: record.uid, parentUid: parentUid, depth: Int(entry.depth), placeholder: false, from: fields[0], to: fields[1],
                       subject: fields[2], text: fields[3], dateTime: fields[4], date: date,
                       flags: record.flags.isEmpty ? [] : record.flags.split(separator: ",").map(String.init),
                       copy: record.copy == 0 ? nil : Int(record.copy))
    }

    private func uid(of entry: Entry) -> String {
        entry.record >= 0 ? records[Int(entry.record)].uid : placeholderUids[Int(-1 - entry.record)]
    }

    static func load(root: String, in sourceId: Int64, of database: LocalDatabase) throws -> ThreadView {
        var records: [Record] = []
        var fields = FieldStore()
        var parentUids: [String] = []
        var copies: [String: [Record]] = [:]
        try database.writer.read { db in
            // Room for every row at once: growing by doubling held two copies at its peak.
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM inboxMessage WHERE sourceId = ? AND threadRoot = ?", arguments: [sourceId, root]) ?? 0
            records.reserveCapacity(count)
            parentUids.reserveCapacity(count)
            let rows = try Row.fetchCursor(db, sql: """
                SELECT uid, responseToUid, flags, parsedTime, fromAddress, toAddress, subject, text, dateTime FROM inboxMessage
                WHERE sourceId = ? AND threadRoot = ? ORDER BY sortKey, arrival
                """, arguments: [sourceId, root])
            while let row = try rows.next() {
                records.append(Record(uid: row[0], flags: row[2], location: fields.append(row, from: 4), parsedTime: row[3] ?? .nan, copy: 0))
                parentUids.append(row[1])
            }
            let copyRows = try Row.fetchCursor(db, sql: """
                SELECT d.uid, d.copy, d.fromAddress, d.toAddress, d.subject, d.text, d.dateTime
                FROM inboxDuplicate d JOIN inboxMessage m ON m.sourceId = d.sourceId AND m.uid = d.uid
                WHERE d.sourceId = ? AND m.threadRoot = ? ORDER BY d.uid, d.copy
                """, arguments: [sourceId, root])
            while let row = try copyRows.next() {
                copies[row[0], default: []].append(Record(uid: row[0], flags: "duplicateUid", location: fields.append(row, from: 2), parsedTime: .nan, copy: row[1]))
            }
        }
        // Rows come in date order: their index is their age rank.
        let layout = ThreadLayout(uids: records.map(\.uid), parentUids: parentUids, order: Array(records.indices))
        parentUids = []
        let messageCount = records.count
        var entries: [Entry] = []
        entries.reserveCapacity(layout.nodeCount)
        var entryOf = [Int32](repeating: -1, count: layout.nodeCount)
        // Each copy after its message's replies, as a later sibling: nothing the server sent is
        // hidden, and the replies stay under the message they answer.
        var open: [(depth: Int32, parent: Int32, copies: [Int32])] = []
        var copiesOfRow: [Int: [Int32]] = [:]
        func closeOpen(deeperThan depth: Int32) {
            while let last = open.last, last.depth >= depth {
                open.removeLast()
                for copy in last.copies { entries.append(Entry(record: copy, depth: last.depth, parent: last.parent)) }
            }
        }
        for root in layout.roots {
            for node in layout.walk(from: root) {
                let depth = Int32(layout.depth[node])
                closeOpen(deeperThan: depth)
                let parent = layout.parent[node].map { entryOf[$0] } ?? -1
                let record = layout.isPlaceholder(node) ? Int32(-1 - (node - messageCount)) : Int32(node)
                entryOf[node] = Int32(entries.count)
                entries.append(Entry(record: record, depth: depth, parent: parent))
                if record >= 0, let held = copies.removeValue(forKey: records[node].uid) {
                    var indices: [Int32] = []
                    for copy in held {
                        indices.append(Int32(records.count))
                        records.append(copy)
                    }
                    open.append((depth, parent, indices))
                    copiesOfRow[node] = indices
                }
            }
        }
        closeOpen(deeperThan: 0)
        // Date order: the rows' own order, each copy right after its message.
        var dateOrder: [Int32] = []
        dateOrder.reserveCapacity(entries.count)
        var entryOfRecord = [Int32](repeating: -1, count: records.count)
        for (index, entry) in entries.enumerated() where entry.record >= 0 { entryOfRecord[Int(entry.record)] = Int32(index) }
        for index in 0..<messageCount {
            dateOrder.append(entryOfRecord[index])
            for copy in copiesOfRow[index] ?? [] { dateOrder.append(entryOfRecord[Int(copy)]) }
        }
        return ThreadView(root: root, records: records, fields: fields, placeholderUids: layout.placeholderUids, entries: entries, dateOrder: dateOrder)
    }
}
