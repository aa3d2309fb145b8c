import ConnCore
import ConnProtocol
import Foundation
import GRDB

/// One fetch merged into the cache, inside the fetch's write transaction: the cached messages
/// and the document's records side by side, threaded together, and then only what changed
/// written — each new message once, with its thread columns already computed; an unchanged
/// message only when a late parent moved it; a conversation only when one of its messages
/// was written.
///
/// A uid the document gives more than once is one message, its first record (replies thread
/// to it); the later records are kept beside it as copies, and the message is flagged
/// `duplicateUid` while it has any.
struct InboxMerge {
    /// What a message's row says about its place in the threads.
    struct ThreadColumns: Equatable {
        var sortKey: Double
        var threadRoot: String
        var depth: Int
        var flags: String
    }

    /// One message of the merge, 100,000 of them on a large inbox: kept to 64 bytes (the fields
    /// ordered so the optionals pack at the end), and what only a cached message has is in
    /// `cached`, so a full fetch does not carry it.
    struct Message {
        var uid: String
        var parentUid: String
        var arrival: Int
        var parsedTime: Double?
        /// This fetch's record (its index in the document), when the message is new or changed;
        /// nil while the cached copy stands. 32 bits: a document holds under 2^30 records
        /// (InboxDocumentReader refuses a body over 2 GiB, and a record takes at least two bytes).
        var incoming: Int32?
        /// A record for this uid was in this fetch's document.
        var seenInDocument = false
    }

    /// What the cache held for a message before this fetch.
    struct CachedState {
        /// The thread columns as stored.
        var columns: ThreadColumns
        /// RecordHash of the record as cached, to tell an unchanged record from an update.
        var hash: Int64?
    }

    /// In arrival order.
    private(set) var messages: [Message] = []
    /// For the messages the cache held before this fetch: the first `cached.count` of `messages`.
    private var cached: [CachedState] = []
    private var indexOf: [String: Int] = [:]
    /// The copy this merge reads and writes (inboxSource.id).
    private let sourceId: Int64
    /// The hashes of each uid's stored copies (records after the first), in order.
    private var cachedCopies: [String: [Int64]] = [:]
    /// The positions in this fetch's document of each uid's later records, in order.
    private var incomingCopies: [String: [Int32]] = [:]
    /// The uids whose copies this fetch changes (a uid it gave with other copies than cached),
    /// found once at the end of `apply`.
    private var changedCopies: Set<String> = []
    /// This fetch's records.
    private var document = InboxDocument(records: [])

    init(loadingFrom db: Database, sourceId: Int64) throws {
        self.sourceId = sourceId
        let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM inboxMessage WHERE sourceId = ?", arguments: [sourceId]) ?? 0
        messages.reserveCapacity(count)
        cached.reserveCapacity(count)
        // Read through SQLite's C API: a re-fetch loads every cached message's columns, and
        // GRDB's generic per-column decoding was most of a no-change re-fetch's store.
        // In the table's own order: an ORDER BY made SQLite copy every row into a sorter before
        // returning the first; the rows are put in arrival order here, and most often already are.
        let rows = try DirectStatement(db.makeStatement(sql: """
            SELECT uid, responseToUid, parsedTime, arrival, sortKey, threadRoot, depth, flags, rawHash FROM inboxMessage WHERE sourceId = ?1
            """), in: db)
        try rows.bind(1, sourceId)
        var inArrivalOrder = true
        while try rows.nextRow() {
            let arrival = Int(rows.int64(3) ?? 0)
            if let last = messages.last, last.arrival >= arrival { inArrivalOrder = false }
            messages.append(Message(uid: rows.text(0), parentUid: rows.text(1), arrival: arrival, parsedTime: rows.double(2)))
            cached.append(CachedState(columns: ThreadColumns(sortKey: rows.double(4) ?? 0, threadRoot: rows.text(5), depth: Int(rows.int64(6) ?? 0),
                                                             flags: rows.text(7)),
                                      hash: rows.int64(8)))
        }
        if !inArrivalOrder {
            let order = messages.indices.sorted { messages[$0].arrival < messages[$1].arrival }
            messages = order.map { messages[$0] }
            cached = order.map { cached[$0] }
        }
        indexOf.reserveCapacity(count)
        for (index, message) in messages.enumerated() { indexOf[message.uid] = index }
        for row in try Row.fetchAll(db, sql: "SELECT uid, rawHash FROM inboxDuplicate WHERE sourceId = ? ORDER BY uid, copy", arguments: [sourceId]) {
            cachedCopies[row[0], default: []].append(row[1])
        }
    }

    /// What the cache held for the message at `index`; nil for a new message.
    private func cachedState(_ index: Int) -> CachedState? {
        index < cached.count ? cached[index] : nil
    }

    /// Takes in the document's records: new uids are appended in arrival order; a uid's first
    /// record is its message, later ones its copies. Counts are per uid: a message is unchanged
    /// when its record and its copies are those cached.
    /// An unchanged record (same hash as its cached copy) is looked at no further: its fields
    /// are never read out of the document.
    mutating func apply(_ document: InboxDocument, at now: Date) -> InboxCache.StoreSummary {
        self.document = document
        var summary = InboxCache.StoreSummary(fetched: document.count, new: 0, updated: 0, unchanged: 0)
        var nextArrival = (messages.last?.arrival ?? 0) + 1
        // Room for every record to be new only when nothing is cached: a re-fetch mostly finds
        // its uids, and sizing for twice the cache would rehash every one of them.
        if messages.isEmpty {
            messages.reserveCapacity(document.count)
            indexOf.reserveCapacity(document.count)
        }
        for (position, entry) in document.entries.enumerated() {
            if position % InboxDocumentReader.recordsBetweenPageReleases == 0 { document.releaseResidentPages() }
            guard let index = indexOf[entry.uid] else {
                let threading = document.threading(at: position)
                indexOf[entry.uid] = messages.count
                messages.append(Message(uid: entry.uid, parentUid: threading.responseToUid, arrival: nextArrival,
                                        parsedTime: Self.parseDate(threading.dateTime, now), incoming: Int32(position), seenInDocument: true))
                nextArrival += 1
                summary.new += 1
                continue
            }
            if messages[index].seenInDocument {
                incomingCopies[entry.uid, default: []].append(Int32(position))
                summary.duplicates += 1
                if summary.duplicateUids.count < 5, !summary.duplicateUids.contains(entry.uid) { summary.duplicateUids.append(entry.uid) }
                continue
            }
            messages[index].seenInDocument = true
            guard cachedState(index)?.hash != entry.rawHash else {
                summary.unchanged += 1
                continue
            }
            let threading = document.threading(at: position)
            messages[index].incoming = Int32(position)
            messages[index].parentUid = threading.responseToUid
            messages[index].parsedTime = Self.parseDate(threading.dateTime, now)
            summary.updated += 1
        }
        // Copies change only for a uid that has some now or had some, and that this document gave.
        for uid in Set(incomingCopies.keys).union(cachedCopies.keys) where indexOf[uid].map({ messages[$0].seenInDocument }) == true {
            let hashes = (incomingCopies[uid] ?? []).map { document.entries[Int($0)].rawHash }
            if hashes != cachedCopies[uid] ?? [] { changedCopies.insert(uid) }
        }
        // A message whose record is unchanged but whose copies are not was updated.
        for uid in changedCopies where messages[indexOf[uid]!].incoming == nil {
            summary.unchanged -= 1
            summary.updated += 1
        }
        return summary
    }

    private static func parseDate(_ text: String, _ now: Date) -> Double? {
        DateTimeText.parse(text, relativeTo: now)?.timeIntervalSince1970
    }

    /// Whether this fetch changes nothing: no new or changed record or copy. The threads are
    /// then what they were, so there is nothing to compute or write.
    var changesNothing: Bool {
        changedCopies.isEmpty && messages.allSatisfy { $0.incoming == nil }
    }

    /// Threads every message and writes what changed: messages, then conversations.
    func write(to db: Database, at now: Date) throws {
        if changesNothing { return }
        let sortKeys = sortKeys()
        let rank = rank(by: sortKeys)
        let layout = ThreadLayout(uids: messages.map(\.uid), parentUids: messages.map(\.parentUid), order: rank, indexOf: indexOf)
        let uid = layout.uid

        let statements = try Statements(db, sourceId: sourceId)
        let fetchedAt = now.timeIntervalSince1970
        let hasCopies = try writeCopies(db)
        // The conversations to rewrite: those a written message is in now, and those one was
        // in before (they lost it); old roots that are roots no more are only removed.
        var rewrite = [Bool](repeating: false, count: layout.nodeCount)
        var staleRoots: Set<String> = []
        var written = 0
        for root in layout.roots {
            let rootUid = uid(root)
            for node in layout.walk(from: root) where !layout.isPlaceholder(node) {
                let message = messages[node]
                var flags: [String] = []
                if layout.brokeCycle[node] { flags.append("cycleBroken") }
                if hasCopies.contains(message.uid) { flags.append("duplicateUid") }
                if let parent = layout.parent[node], layout.isPlaceholder(parent) { flags.append("parentMissing") }
                let columns = ThreadColumns(sortKey: sortKeys[node], threadRoot: rootUid, depth: layout.depth[node], flags: flags.joined(separator: ","))
                let stored = cachedState(node)?.columns
                if let position = message.incoming.map(Int.init) {
                    written += 1
                    if written % InboxDocumentReader.recordsBetweenPageReleases == 0 { document.releaseResidentPages() }
                    // The record's text goes from the document to SQLite without becoming a String.
                    let rawHash = document.entries[position].rawHash
                    // Insert and update number their parameters alike (the update leaves ?4 out).
                    let write = stored == nil ? statements.insertMessage : statements.updateMessage
                    try write.bind(1, message.uid)
                    try write.bind(2, message.parentUid)
                    try write.bind(3, message.parsedTime)
                    try write.bind(4, message.arrival)
                    try write.bind(5, columns.sortKey)
                    try write.bind(6, columns.threadRoot)
                    try write.bind(7, columns.depth)
                    try write.bind(8, columns.flags)
                    try document.withRawText(at: position) { try write.bind(9, text: $0) }
                    try write.bind(10, rawHash)
                    try write.bind(11, fetchedAt)
                    try write.bind(12, sourceId)
                    try write.run()
                } else if columns != stored {
                    try statements.updateThread.execute(arguments: [columns.sortKey, columns.threadRoot, columns.depth, columns.flags, message.uid, sourceId])
                } else {
                    continue
                }
                rewrite[root] = true
                if let stored { staleRoots.insert(stored.threadRoot) }
            }
        }
        if !staleRoots.isEmpty {
            for root in layout.roots where staleRoots.contains(uid(root)) { rewrite[root] = true }
        }
        if !cached.isEmpty {
            for root in staleRoots.union(layout.roots.filter { rewrite[$0] }.map(uid)) {
                try statements.deleteConversation.execute(arguments: [root, sourceId])
            }
        }
        document.releaseResidentPages()
        var summarized = 0
        for root in layout.roots where rewrite[root] {
            summarized += 1
            if summarized % InboxDocumentReader.recordsBetweenPageReleases == 0 { document.releaseResidentPages() }
            let members = layout.walk(from: root).filter { !layout.isPlaceholder($0) }
            let fields = try members.map { node in
                try messages[node].incoming.map { ConversationRecord.Fields(document.email(at: Int($0))) } ?? statements.cachedFields(of: messages[node].uid)
            }
            let record = ConversationRecord(rootUid: uid(root), members: fields, sortKeys: members.map { sortKeys[$0] }, missingParent: layout.isPlaceholder(root))
            try record.insert(with: statements.insertConversation, sourceId: sourceId)
        }
    }

    /// Stores the copies of every uid whose copies this fetch changed; returns the uids that
    /// have copies afterwards (flagged `duplicateUid`).
    private func writeCopies(_ db: Database) throws -> Set<String> {
        var hasCopies = Set(cachedCopies.keys)
        for uid in changedCopies {
            try db.execute(sql: "DELETE FROM inboxDuplicate WHERE sourceId = ? AND uid = ?", arguments: [sourceId, uid])
            let positions = incomingCopies[uid] ?? []
            for (offset, position) in positions.enumerated() {
                let entry = document.entries[Int(position)]
                let raw = document.withRawText(at: Int(position)) { String(decoding: $0, as: UTF8.self) }
                try db.execute(sql: "INSERT INTO inboxDuplicate(sourceId, uid, copy, raw, rawHash) VALUES (?, ?, ?, ?, ?)",
                               arguments: [sourceId, uid, offset + 2, raw, entry.rawHash])
            }
            if positions.isEmpty { hasCopies.remove(uid) } else { hasCopies.insert(uid) }
        }
        return hasCopies
    }

    /// Parsed time where known; an undated message sorts just after the last dated message
    /// that arrived before it.
    private func sortKeys() -> [Double] {
        var lastKnown = -Double.greatestFiniteMagnitude / 2
        return messages.map { message in
            if let parsed = message.parsedTime {
                lastKnown = parsed
                return parsed
            }
            return lastKnown + Double(message.arrival) * 1e-6
        }
    }

    /// Each message's age rank: by sort key, then arrival.
    private func rank(by sortKeys: [Double]) -> [Int] {
        let ranked = messages.indices.sorted { sortKeys[$0] != sortKeys[$1] ? sortKeys[$0] < sortKeys[$1] : messages[$0].arrival < messages[$1].arrival }
        var rank = [Int](repeating: 0, count: messages.count)
        for (position, index) in ranked.enumerated() { rank[index] = position }
        return rank
    }

    /// The write transaction's statements, prepared once.
    private struct Statements {
        let insertMessage, updateMessage, insertConversation: DirectStatement
        let updateThread, deleteConversation, selectFields: Statement

        let sourceId: Int64

        init(_ db: Database, sourceId: Int64) throws {
            self.sourceId = sourceId
            insertMessage = try DirectStatement(db.makeStatement(sql: """
                INSERT INTO inboxMessage(uid, responseToUid, parsedTime, arrival, sortKey, threadRoot, depth, flags, raw, rawHash, fetchedAt, sourceId)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
                """), in: db)
            // The arrival (?4) stays as it was: a message keeps its place in arrival order.
            updateMessage = try DirectStatement(db.makeStatement(sql: """
                UPDATE inboxMessage SET responseToUid = ?2, parsedTime = ?3, sortKey = ?5, threadRoot = ?6, depth = ?7, flags = ?8,
                raw = ?9, rawHash = ?10, fetchedAt = ?11
                WHERE uid = ?1 AND sourceId = ?12
                """), in: db)
            updateThread = try db.makeStatement(sql: "UPDATE inboxMessage SET sortKey = ?, threadRoot = ?, depth = ?, flags = ? WHERE uid = ? AND sourceId = ?")
            deleteConversation = try db.makeStatement(sql: "DELETE FROM inboxConversation WHERE rootUid = ? AND sourceId = ?")
            insertConversation = try DirectStatement(db.makeStatement(sql: """
                INSERT INTO inboxConversation(\(ConversationRecord.columns), sourceId) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """), in: db)
            selectFields = try db.makeStatement(sql: "SELECT fromAddress, toAddress, subject, text, dateTime FROM inboxMessage WHERE uid = ? AND sourceId = ?")
        }

        /// The summary fields of a message this fetch did not change.
        func cachedFields(of uid: String) throws -> ConversationRecord.Fields {
            guard let row = try Row.fetchOne(selectFields, arguments: [uid, sourceId]) else {
                throw ConnError.internalError("message \(uid) is in the merge but not in the cache")
            }
            return ConversationRecord.Fields(from: row[0], to: row[1], subject: row[2], text: row[3], dateTime: row[4])
        }
    }
}
