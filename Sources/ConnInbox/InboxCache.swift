import ConnCore
import ConnProtocol
import Foundation
import GRDB

/// The local copy of the inbox: written in one transaction per fetch, read offline.
public struct InboxCache: Sendable {
    public let database: LocalDatabase

    public init(database: LocalDatabase) { self.database = database }

    public struct StoreSummary: Sendable, Equatable, Encodable {
        public var fetched: Int
        public var new: Int
        public var updated: Int
        public var unchanged: Int
    }

    static let etagKey = "inbox.etag", fetchedAtKey = "inbox.fetchedAt", sourceKey = "inbox.source"

    public var etag: String? { try? database.metaValue(Self.etagKey) }

    /// When and from where the cache was last filled, if ever.
    public func lastFetch() throws -> (at: Date, source: String)? {
        guard let at = try database.metaValue(Self.fetchedAtKey).flatMap(Double.init), let source = try database.metaValue(Self.sourceKey) else { return nil }
        return (Date(timeIntervalSince1970: at), source)
    }

    /// Marks a conditional fetch answered 304: the cache is current as of now.
    public func touch(source: String, at now: Date) throws {
        try database.writer.write { db in try Self.setMeta(db, [Self.fetchedAtKey: String(now.timeIntervalSince1970), Self.sourceKey: source]) }
    }

    /// Upserts the records by uid, recomputes threads and conversations, and records the ETag —
    /// all in one transaction, so a reader never sees half a fetch.
    public func store(_ records: [InboxDocumentReader.Record], etag: String?, source: String, at now: Date) throws -> StoreSummary {
        try database.writer.write { db in
            var existing: [String: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT uid, raw FROM inboxMessage") { existing[row[0]] = row[1] }
            var nextArrival = (try Int.fetchOne(db, sql: "SELECT COALESCE(MAX(arrival), 0) FROM inboxMessage") ?? 0) + 1
            var summary = StoreSummary(fetched: records.count, new: 0, updated: 0, unchanged: 0)
            let insert = try db.makeStatement(sql: """
                INSERT INTO inboxMessage(uid, fromAddress, toAddress, subject, text, responseToUid, dateTime, parsedTime, arrival, sortKey, threadRoot, depth, raw, fetchedAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, '', 0, ?, ?)
                """)
            let update = try db.makeStatement(sql: """
                UPDATE inboxMessage SET fromAddress = ?, toAddress = ?, subject = ?, text = ?, responseToUid = ?, dateTime = ?, parsedTime = ?, raw = ?, fetchedAt = ? WHERE uid = ?
                """)
            // A uid seen twice in one document is flagged; its later record wins; counts are per uid.
            var seen: Set<String> = []
            var duplicates: Set<String> = []
            for record in records {
                let email = record.email
                let firstTime = seen.insert(email.uid).inserted
                if !firstTime { duplicates.insert(email.uid) }
                if let previous = existing[email.uid] {
                    if previous == record.raw {
                        if firstTime { summary.unchanged += 1 }
                        continue
                    }
                    let parsed = DateTimeText.parse(email.dateTime, relativeTo: now)?.timeIntervalSince1970
                    try update.execute(arguments: [email.from, email.to, email.subject, email.text, email.responseToUid, email.dateTime, parsed, record.raw, now.timeIntervalSince1970, email.uid])
                    existing[email.uid] = record.raw
                    if firstTime { summary.updated += 1 }
                } else {
                    let parsed = DateTimeText.parse(email.dateTime, relativeTo: now)?.timeIntervalSince1970
                    try insert.execute(arguments: [email.uid, email.from, email.to, email.subject, email.text, email.responseToUid, email.dateTime, parsed, nextArrival, record.raw, now.timeIntervalSince1970])
                    nextArrival += 1
                    summary.new += 1
                    existing[email.uid] = record.raw
                }
            }
            try Self.rethread(db, duplicates: duplicates)
            var meta = [Self.fetchedAtKey: String(now.timeIntervalSince1970), Self.sourceKey: source]
            if let etag { meta[Self.etagKey] = etag }
            try Self.setMeta(db, meta)
            if etag == nil { try db.execute(sql: "DELETE FROM meta WHERE key = ?", arguments: [Self.etagKey]) }
            return summary
        }
    }

    private static func setMeta(_ db: Database, _ values: [String: String]) throws {
        for (key, value) in values { try LocalDatabase.setMetaValue(db, key, value) }
    }

    /// Recomputes sort keys, thread roots, depths, flags and the conversation table: a late
    /// parent re-links its replies.
    static func rethread(_ db: Database, duplicates: Set<String>) throws {
        // Rows are addressed by index everywhere below: copying a struct of seven strings, or
        // hashing a uid, per comparison was most of the cost at 100,000 messages.
        struct Row_ { var uid, parent, from, to, subject, text, dateTime: String; var parsed: Double?; var arrival: Int; var sortKey = 0.0 }
        var rows: [Row_] = []
        for row in try Row.fetchAll(db, sql: "SELECT uid, responseToUid, fromAddress, toAddress, subject, text, dateTime, parsedTime, arrival FROM inboxMessage ORDER BY arrival") {
            rows.append(Row_(uid: row[0], parent: row[1], from: row[2], to: row[3], subject: row[4], text: row[5], dateTime: row[6], parsed: row[7], arrival: row[8]))
        }
        // Undated messages sort just after the last dated message that arrived before them.
        var lastKnown = -Double.greatestFiniteMagnitude / 2
        for index in rows.indices {
            if let parsed = rows[index].parsed {
                lastKnown = parsed
                rows[index].sortKey = parsed
            } else {
                rows[index].sortKey = lastKnown + Double(rows[index].arrival) * 1e-6
            }
        }
        let ranked = rows.indices.sorted { (rows[$0].sortKey, rows[$0].arrival) < (rows[$1].sortKey, rows[$1].arrival) }
        var rank = [Int](repeating: 0, count: rows.count)
        for (position, index) in ranked.enumerated() { rank[index] = position }
        let forest = ThreadBuilder.build(rows.indices.map { ThreadBuilder.Message(uid: rows[$0].uid, parentUid: rows[$0].parent, order: rank[$0]) })

        let update = try db.makeStatement(sql: "UPDATE inboxMessage SET sortKey = ?, threadRoot = ?, depth = ?, flags = ? WHERE uid = ?")
        try db.execute(sql: "DELETE FROM inboxConversation")
        let insertConversation = try db.makeStatement(sql: """
            INSERT INTO inboxConversation(rootUid, subject, participants, messageCount, lastSortKey, lastDateTime, snippet, missingParent) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)
        var indexOf = [String: Int](minimumCapacity: rows.count)
        for index in rows.indices { indexOf[rows[index].uid] = index }
        for root in forest.roots {
            let members = forest.walk(from: root)
            var messages: [Int] = []
            messages.reserveCapacity(members.count)
            for node in members where !node.isPlaceholder {
                guard let index = indexOf[node.uid] else { continue }
                messages.append(index)
                var flags = ""
                func flag(_ name: String) { flags += flags.isEmpty ? name : "," + name }
                if node.brokeCycle { flag("cycleBroken") }
                if duplicates.contains(node.uid) { flag("duplicateUid") }
                if let parent = node.parentUid, forest.nodes[parent]?.isPlaceholder == true { flag("parentMissing") }
                try update.execute(arguments: [rows[index].sortKey, root, node.depth, flags, node.uid])
            }
            guard let first = messages.first, let latest = messages.max(by: { rows[$0].sortKey < rows[$1].sortKey }) else { continue }
            var participants: [String] = []
            var seen: Set<String> = []
            for index in messages {
                for address in [rows[index].from] + rows[index].to.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) })
                where !address.isEmpty && seen.insert(address).inserted {
                    participants.append(address)
                }
            }
            let snippet = String(rows[latest].text.prefix(120))
            try insertConversation.execute(arguments: [root, rows[first].subject, participants.joined(separator: ", "), messages.count, rows[latest].sortKey,
                                                       rows[latest].dateTime, snippet, forest.nodes[root]?.isPlaceholder == true])
        }
    }
}
