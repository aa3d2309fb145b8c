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
/// Bounded memory: a message is a node number (cached messages first, in arrival order, then
/// the new ones) and a few numbers per node; uids and parents' uids stay in SQLite — a cached
/// message is found through the cache's own primary-key index, a new one in a temporary table
/// (`inboxMergeNode`), and new or changed parent links in another (`inboxMergeLink`) — and a
/// record's fields are read again from the document when it is written. A fetch of a million
/// messages into an empty cache holds about 35 bytes a message.
///
/// A uid the document gives more than once is one message, its first record (replies thread
/// to it); the later records are kept beside it as copies, and the message is flagged
/// `duplicateUid` while it has any.
struct InboxMerge {
    /// What the cache held for a message before this fetch: 24 bytes, for a million of them.
    struct CachedState {
        var rowid: Int64
        var arrival: Int64
        /// `columnsKey` of the thread columns as stored, to tell whether they change.
        var columns: Int64
    }

    /// The thread columns (sort key, root as RecordHash of its uid, depth, flags) folded into 64
    /// bits: equal columns give
    /// equal keys; different ones differ but for a chance of 2^-64 (as RecordHash's records).
    static func columnsKey(sortKey: Double, rootHash: Int64, depth: Int32, flags: ThreadFlags) -> Int64 {
        var key = UInt64(bitPattern: rootHash)
        key = (key ^ sortKey.bitPattern) &* 0x9E37_79B9_7F4A_7C15
        key ^= key >> 29
        key = (key ^ (UInt64(UInt32(bitPattern: depth)) << 8 | UInt64(flags.rawValue))) &* 0xBF58_476D_1CE4_E5B9
        key ^= key >> 32
        return Int64(bitPattern: key)
    }

    private let sourceId: Int64
    /// For the messages the cache held before this fetch: nodes `0..<cached.count`.
    private var cached: [CachedState] = []
    /// RecordHash of each cached message's record, to tell an unchanged record from an update:
    /// needed by `apply` only, and let go after it.
    private var cachedHashes: [Int64] = []
    /// The cached nodes in rowid order: a uid's rowid (from the cache's index alone) to its node,
    /// for `apply`'s look-ups; let go after it (a later look-up reads the arrival).
    private var byRowid: [Int32] = []
    /// Each message's parsed time (NaN: none) until `write` makes them sort keys.
    private var times: [Double] = []
    /// Each message's record in this fetch's document (its position), when it is new or
    /// changed; -1 while the cached copy stands.
    private var incoming: [Int32] = []
    /// What is known of each message, a byte each.
    private var marks: [Marks] = []

    struct Marks: OptionSet {
        let rawValue: UInt8
        /// A record for this message was in this fetch's document.
        static let seen = Marks(rawValue: 1)
        /// The message has a parsed time: its sort key is that time (set by `write`).
        static let dated = Marks(rawValue: 2)
    }
    private var incomingCount = 0
    /// The arrival of the first new message; the rest follow in node order.
    private var firstNewArrival: Int64 = 1
    /// The hashes of each uid's stored copies (records after the first), in order.
    private var cachedCopies: [String: [Int64]] = [:]
    /// The positions in this fetch's document of each uid's later records, in order.
    private var incomingCopies: [String: [Int32]] = [:]
    /// The uids whose copies this fetch changes (a uid it gave with other copies than cached),
    /// found once at the end of `apply`.
    private var changedCopies: Set<String> = []
    /// This fetch's records.
    private var document: InboxDocument?

    private var nodeCount: Int { incoming.count }

    init(loadingFrom db: Database, sourceId: Int64) throws {
        self.sourceId = sourceId
        try db.execute(sql: """
            CREATE TEMP TABLE IF NOT EXISTS inboxMergeNode(uid TEXT PRIMARY KEY, node INTEGER NOT NULL) WITHOUT ROWID;
            CREATE TEMP TABLE IF NOT EXISTS inboxMergeLink(node INTEGER PRIMARY KEY, parentUid TEXT NOT NULL);
            CREATE TEMP TABLE IF NOT EXISTS inboxMergePlaceholder(node INTEGER PRIMARY KEY, uid TEXT NOT NULL UNIQUE);
            DELETE FROM inboxMergeNode;
            DELETE FROM inboxMergeLink;
            DELETE FROM inboxMergePlaceholder;
            """)
        let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM inboxMessage WHERE sourceId = ?", arguments: [sourceId]) ?? 0
        cached.reserveCapacity(count)
        // Read through SQLite's C API: a re-fetch loads every cached message's columns, and
        // GRDB's generic per-column decoding was most of a no-change re-fetch's store.
        let rows = try DirectStatement(db.makeStatement(sql: """
            SELECT rowid, parsedTime, arrival, sortKey, threadRoot, depth, flags, rawHash
            FROM inboxMessage WHERE sourceId = ?1 ORDER BY arrival
            """), in: db)
        try rows.bind(1, sourceId)
        while try rows.nextRow() {
            let columns = Self.columnsKey(sortKey: rows.double(3) ?? 0, rootHash: RecordHash.of(rows.text(4)), depth: Int32(clamping: rows.int64(5) ?? 0),
                                          flags: ThreadFlags(stored: rows.text(6)))
            cached.append(CachedState(rowid: rows.int64(0) ?? 0, arrival: rows.int64(2) ?? 0, columns: columns))
            cachedHashes.append(rows.int64(7) ?? 0)
            times.append(rows.double(1) ?? .nan)
            incoming.append(-1)
            marks.append([])
        }
        firstNewArrival = (cached.last?.arrival ?? 0) + 1
        byRowid = (0..<Int32(cached.count)).map { $0 }
        byRowid.sort { cached[Int($0)].rowid < cached[Int($1)].rowid }
        for row in try Row.fetchAll(db, sql: "SELECT uid, rawHash FROM inboxDuplicate WHERE sourceId = ? ORDER BY uid, copy", arguments: [sourceId]) {
            cachedCopies[row[0], default: []].append(row[1])
        }
    }

    /// The placeholders of this merge (parents that are not among the messages), numbered from
    /// the message count on: found by uid while linking, by node when a conversation is written.
    private struct PlaceholderStatements {
        let insert, byUid, byNode: DirectStatement

        init(_ db: Database) throws {
            insert = try DirectStatement(db.makeStatement(sql: "INSERT INTO inboxMergePlaceholder(node, uid) VALUES (?1, ?2)"), in: db)
            byUid = try DirectStatement(db.makeStatement(sql: "SELECT node FROM inboxMergePlaceholder WHERE uid = ?1"), in: db)
            byNode = try DirectStatement(db.makeStatement(sql: "SELECT uid FROM inboxMergePlaceholder WHERE node = ?1"), in: db)
        }

        func add(_ node: Int32, uid: String) throws {
            try insert.bind(1, Int64(node))
            try insert.bind(2, uid)
            try insert.run()
        }

        func node(of uid: String) throws -> Int32? {
            try byUid.bind(1, uid)
            return try byUid.firstInt64().map { Int32($0) }
        }

        func uid(of node: Int32) throws -> String? {
            try byNode.bind(1, Int64(node))
            return try byNode.firstText()
        }
    }

    /// The statements that find a uid's node — a cached message's by its arrival in the
    /// cache's own index, a new one's in `inboxMergeNode` — and keep the new parent links.
    private struct NodeStatements {
        let insertNode, lookUp, lookUpCached, setLink, lookUpArrival: DirectStatement

        init(_ db: Database, sourceId: Int64) throws {
            insertNode = try DirectStatement(db.makeStatement(sql: "INSERT OR IGNORE INTO inboxMergeNode(uid, node) VALUES (?1, ?2)"), in: db)
            lookUp = try DirectStatement(db.makeStatement(sql: "SELECT node FROM inboxMergeNode WHERE uid = ?1"), in: db)
            // The rowid alone: the primary key's index answers it without reading the row.
            lookUpCached = try DirectStatement(db.makeStatement(sql: "SELECT rowid FROM inboxMessage WHERE sourceId = ?1 AND uid = ?2"), in: db)
            try lookUpCached.bind(1, sourceId)
            setLink = try DirectStatement(db.makeStatement(sql: "INSERT OR REPLACE INTO inboxMergeLink(node, parentUid) VALUES (?1, ?2)"), in: db)
            lookUpArrival = try DirectStatement(db.makeStatement(sql: "SELECT arrival FROM inboxMessage WHERE rowid = ?1"), in: db)
        }

        /// The arrival of the cached message at `rowid`.
        func arrival(ofRowid rowid: Int64) throws -> Int64? {
            try lookUpArrival.bind(1, rowid)
            return try lookUpArrival.firstInt64()
        }

        /// The rowid of the cached message `uid`, if the cache holds it.
        func cachedRowid(of uid: String) throws -> Int64? {
            try lookUpCached.bind(2, uid)
            return try lookUpCached.firstInt64()
        }

        /// Numbers `uid` as `node`, unless it has a number already (then false, and nothing
        /// changes): one statement for a new uid, the common case, instead of a look-up first.
        func add(_ node: Int32, uid: String, parentUid: String, db: Database) throws -> Bool {
            try insertNode.bind(1, uid)
            try insertNode.bind(2, Int64(node))
            try insertNode.run()
            guard db.changesCount > 0 else { return false }
            if !parentUid.isEmpty { try link(node, to: parentUid) }
            return true
        }

        /// The node of a message new in this fetch.
        func newNode(of uid: String) throws -> Int32? {
            try lookUp.bind(1, uid)
            return try lookUp.firstInt64().map { Int32($0) }
        }

        /// Records the parent `node` has in this fetch ("" for none, which overrides a cached one).
        func link(_ node: Int32, to parentUid: String) throws {
            try setLink.bind(1, Int64(node))
            try setLink.bind(2, parentUid)
            try setLink.run()
        }
    }

    /// The node of the cached message that arrived `arrival`th (cached nodes are in arrival order).
    private func cachedNode(arrival: Int64) -> Int32? {
        let found = Self.lowerBound(cached.count, of: arrival) { cached[$0].arrival }
        return found < cached.count && cached[found].arrival == arrival ? Int32(found) : nil
    }

    /// The node of the cached message whose rowid is `rowid`.
    private func cachedNode(rowid: Int64, _ statements: NodeStatements) throws -> Int32? {
        guard !byRowid.isEmpty else { return try statements.arrival(ofRowid: rowid).flatMap(cachedNode(arrival:)) }
        let found = Self.lowerBound(byRowid.count, of: rowid) { cached[Int(byRowid[$0])].rowid }
        return found < byRowid.count && cached[Int(byRowid[found])].rowid == rowid ? byRowid[found] : nil
    }

    /// The first of `0..<count` whose key is not below `target`, the keys ascending.
    private static func lowerBound(_ count: Int, of target: Int64, key: (Int) -> Int64) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if key(middle) < target { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The node of `uid`, cached or new in this fetch.
    private func node(of uid: String, _ statements: NodeStatements) throws -> Int32? {
        if let rowid = try statements.cachedRowid(of: uid) { return try cachedNode(rowid: rowid, statements) }
        return try statements.newNode(of: uid)
    }

    /// Takes in the document's records: new uids are appended in arrival order; a uid's first
    /// record is its message, later ones its copies. Counts are per uid: a message is unchanged
    /// when its record and its copies are those cached.
    mutating func apply(_ document: InboxDocument, to db: Database, at now: Date) throws -> InboxCache.StoreSummary {
        self.document = document
        var summary = InboxCache.StoreSummary(fetched: document.count, new: 0, updated: 0, unchanged: 0)
        let statements = try NodeStatements(db, sourceId: sourceId)
        // Room for every record to be new only when nothing is cached.
        if cached.isEmpty {
            times.reserveCapacity(document.count)
            incoming.reserveCapacity(document.count)
            marks.reserveCapacity(document.count)
        }
        for position in 0..<document.count {
            if position % InboxDocumentReader.recordsBetweenPageReleases == 0 { document.releaseResidentPages() }
            let entry = document.entry(at: position)
            let cachedRowid = cached.isEmpty ? nil : try statements.cachedRowid(of: entry.uid)
            if cachedRowid == nil, try statements.add(Int32(nodeCount), uid: entry.uid, parentUid: entry.responseToUid, db: db) {
                times.append(Self.parseDate(entry.dateTime, now))
                incoming.append(Int32(position))
                marks.append(.seen)
                incomingCount += 1
                summary.new += 1
                continue
            }
            guard let node = try cachedRowid.map({ try cachedNode(rowid: $0, statements) }) ?? statements.newNode(of: entry.uid) else {
                throw ConnError.internalError("inbox merge: \(entry.uid) is numbered but not found")
            }
            let index = Int(node)
            if marks[index].contains(.seen) {
                incomingCopies[entry.uid, default: []].append(Int32(position))
                summary.duplicates += 1
                if summary.duplicateUids.count < 5, !summary.duplicateUids.contains(entry.uid) { summary.duplicateUids.append(entry.uid) }
                continue
            }
            marks[index].insert(.seen)
            guard cachedHashes[index] != entry.rawHash else {
                summary.unchanged += 1
                continue
            }
            incoming[index] = Int32(position)
            incomingCount += 1
            times[index] = Self.parseDate(entry.dateTime, now)
            try statements.link(node, to: entry.responseToUid)
            summary.updated += 1
        }
        // Copies change only for a uid that has some now or had some, and that this document gave.
        // The copies are read where they lie (a document of 400,000 copies of 1,000 uids held
        // all its pages, 161 MB, until these two passes handed them back too).
        var copiesRead = InboxDocument.ScatteredReads()
        for uid in Set(incomingCopies.keys).union(cachedCopies.keys) {
            guard let node = try node(of: uid, statements), marks[Int(node)].contains(.seen) else { continue }
            let hashes = (incomingCopies[uid] ?? []).map { position in
                copiesRead.count(in: document)
                return document.entry(at: Int(position)).rawHash
            }
            if hashes != cachedCopies[uid] ?? [] { changedCopies.insert(uid) }
        }
        // A message whose record is unchanged but whose copies are not was updated.
        for uid in changedCopies {
            if let node = try node(of: uid, statements), incoming[Int(node)] < 0 {
                summary.unchanged -= 1
                summary.updated += 1
            }
        }
        cachedHashes = []
        byRowid = []
        return summary
    }

    private static func parseDate(_ text: String, _ now: Date) -> Double {
        DateTimeText.parse(text, relativeTo: now)?.timeIntervalSince1970 ?? .nan
    }

    /// Whether this fetch changes nothing: no new or changed record or copy. The threads are
    /// then what they were, so there is nothing to compute or write.
    var changesNothing: Bool {
        changedCopies.isEmpty && incomingCount == 0
    }

    /// Threads every message and writes what changed: messages, then conversations. Consumes
    /// the merge's arrays as it goes.
    mutating func write(to db: Database, at now: Date) throws {
        defer { try? db.execute(sql: "DELETE FROM inboxMergeNode; DELETE FROM inboxMergeLink;") }
        guard !changesNothing, let document else { return }
        let messageCount = nodeCount
        // Sort keys: the parsed time where known; an undated message sorts just after the last
        // dated message that arrived before it.
        var lastKnown = -Double.greatestFiniteMagnitude / 2
        for node in 0..<messageCount {
            if times[node].isNaN {
                times[node] = lastKnown + Double(arrival(of: node)) * 1e-6
            } else {
                lastKnown = times[node]
                marks[node].insert(.dated)
            }
        }
        let sortKeys = times
        times = []
        let placeholders = try PlaceholderStatements(db)
        var (parent, placeholderCount) = try links(db, messageCount: messageCount, placeholders: placeholders)
        let forest = ThreadForest(parent: &parent, placeholderCount: placeholderCount, sortKeys: sortKeys)
        let hasCopies = try writeCopies(db)

        let statements = try Statements(db, sourceId: sourceId)
        let nodes = try NodeStatements(db, sourceId: sourceId)
        /// The record of a message new or changed in this fetch, read again; nil for a
        /// placeholder or a message the cache keeps.
        func incomingEntry(_ node: Int32, withFields: Bool) -> InboxDocument.Entry? {
            forest.isPlaceholder(node) || incoming[Int(node)] < 0 ? nil : document.entry(at: Int(incoming[Int(node)]), withFields: withFields)
        }
        /// A conversation's root uid: a placeholder's, from the root's record (`entry`), or the cache's.
        func uid(ofRoot root: Int32, _ entry: InboxDocument.Entry?) throws -> String {
            if forest.isPlaceholder(root) {
                guard let uid = try placeholders.uid(of: root) else { throw ConnError.internalError("inbox merge: placeholder \(root) has no uid") }
                return uid
            }
            return try entry?.uid ?? statements.cachedUid(cached[Int(root)].rowid)
        }
        var copyNodes: Set<Int32> = []
        for uid in hasCopies { if let node = try node(of: uid, nodes) { copyNodes.insert(node) } }

        let fetchedAt = now.timeIntervalSince1970
        // The conversations to rewrite: those a written message is in now, and those one was
        // in before (they lost it); old roots that are roots no more are only removed.
        var rewrite: Set<Int32> = []
        // Into an empty cache every message is written, so every conversation: each is summed up
        // in the same walk, from the records as they are read for their rows (one reading each).
        let rewriteAll = cached.isEmpty
        var staleRoots: Set<String> = []
        var written = InboxDocument.ScatteredReads()
        var fields: [ConversationRecord.Fields] = []
        var memberKeys: [Double] = []
        for root in forest.roots {
            let members = forest.walk(from: root)
            // The root's record first: its uid is every member's thread root.
            let rootEntry = incomingEntry(root, withFields: rewriteAll)
            let rootUid = try uid(ofRoot: root, rootEntry)
            let rootHash = RecordHash.of(rootUid)
            fields.removeAll(keepingCapacity: true)
            memberKeys.removeAll(keepingCapacity: true)
            for (node, depth) in members where !forest.isPlaceholder(node) {
                let index = Int(node)
                var flags: ThreadFlags = []
                if forest.brokeCycle.contains(node) { flags.insert(.cycleBroken) }
                if copyNodes.contains(node) { flags.insert(.duplicateUid) }
                if forest.parent[index] >= 0, forest.isPlaceholder(forest.parent[index]) { flags.insert(.parentMissing) }
                let stored = index < cached.count ? cached[index] : nil
                let columns = Self.columnsKey(sortKey: sortKeys[index], rootHash: rootHash, depth: depth, flags: flags)
                guard incoming[index] >= 0 || stored.map({ $0.columns != columns }) == true else { continue }
                // The root it had, when another: read before its row is rewritten.
                let formerRoot = try stored.flatMap { stored in try statements.cachedRoot(stored.rowid).flatMap { $0 == rootUid ? nil : $0 } }
                if incoming[index] >= 0 {
                    written.count(in: document)
                    let entry = node == root ? rootEntry! : document.entry(at: Int(incoming[index]), withFields: rewriteAll)
                    if let summary = entry.fields {
                        fields.append(summary)
                        memberKeys.append(sortKeys[index])
                    }
                    // Insert and update number their parameters alike (the update leaves ?4 out).
                    let write = stored == nil ? statements.insertMessage : statements.updateMessage
                    try write.bind(1, entry.uid)
                    try write.bind(2, entry.responseToUid)
                    try write.bind(3, marks[index].contains(.dated) ? sortKeys[index] : nil)
                    try write.bind(4, arrival(of: index))
                    try write.bind(5, sortKeys[index])
                    try write.bind(6, rootUid)
                    try write.bind(7, Int(depth))
                    try write.bind(8, flags.text)
                    // The record's text goes from the document to SQLite without becoming a String.
                    try document.withRawText(of: entry) { try write.bind(9, text: $0) }
                    try write.bind(10, entry.rawHash)
                    try write.bind(11, fetchedAt)
                    try write.bind(12, sourceId)
                    try write.run()
                } else if let stored {
                    try statements.updateThread.bind(1, sortKeys[index])
                    try statements.updateThread.bind(2, rootUid)
                    try statements.updateThread.bind(3, Int(depth))
                    try statements.updateThread.bind(4, flags.text)
                    try statements.updateThread.bind(5, stored.rowid)
                    try statements.updateThread.run()
                }
                if !rewriteAll, rewrite.insert(root).inserted {
                    try statements.deleteConversation(rootUid)
                }
                if let formerRoot { staleRoots.insert(formerRoot) }
            }
            if rewriteAll, !fields.isEmpty {
                let record = ConversationRecord(rootUid: rootUid, members: fields, sortKeys: memberKeys, missingParent: forest.isPlaceholder(root))
                try record.insert(with: statements.insertConversation, sourceId: sourceId)
            }
        }
        document.releaseResidentPages()
        guard !rewriteAll else { return }
        for staleRoot in staleRoots {
            try statements.deleteConversation(staleRoot)
            // A stale root that is still a root is rewritten.
            if let node = try node(of: staleRoot, nodes), forest.parent[Int(node)] < 0 {
                rewrite.insert(node)
            } else if let placeholder = try placeholders.node(of: staleRoot) {
                rewrite.insert(placeholder)
            }
        }
        var summarized = InboxDocument.ScatteredReads()
        for root in forest.roots where rewrite.contains(root) {
            summarized.count(in: document)
            let members = forest.walk(from: root).filter { !forest.isPlaceholder($0.node) }
            let rootEntry = incomingEntry(root, withFields: true)
            let fields = try members.map { member in
                let entry = member.node == root ? rootEntry : incomingEntry(member.node, withFields: true)
                return try entry?.fields ?? statements.cachedFields(cached[Int(member.node)].rowid)
            }
            let record = ConversationRecord(rootUid: try uid(ofRoot: root, rootEntry), members: fields, sortKeys: members.map { sortKeys[Int($0.node)] },
                                            missingParent: forest.isPlaceholder(root))
            try record.insert(with: statements.insertConversation, sourceId: sourceId)
        }
    }

    /// The arrival number of the message at `node`.
    private func arrival(of node: Int) -> Int64 {
        node < cached.count ? cached[node].arrival : firstNewArrival + Int64(node - cached.count)
    }

    /// Each message's parent node: a cached message's from its row (a parent cached too, new
    /// in this fetch, or missing), a new or changed one's from this fetch's links; a parent that
    /// is not among the messages becomes a placeholder node (numbered from `messageCount` on).
    /// The placeholders' uids stay in SQLite, as the messages' do: a hostile inbox whose every
    /// record answers a parent of its own that is not there held them all in a dictionary
    /// (400,000 records: 67.5 MB against 32.7 for an ordinary inbox).
    private func links(_ db: Database, messageCount: Int, placeholders: PlaceholderStatements) throws -> (parent: [Int32], placeholderCount: Int) {
        var parent = [Int32](repeating: -1, count: messageCount)
        var placeholderCount = 0
        let nodes = try NodeStatements(db, sourceId: sourceId)
        func link(_ node: Int, to found: Int32?, parentUid: String) throws {
            if let found {
                if found != Int32(node) { parent[node] = found }  // a message is not its own parent
            } else if let placeholder = try placeholders.node(of: parentUid) {
                parent[node] = placeholder
            } else {
                let placeholder = Int32(messageCount + placeholderCount)
                try placeholders.add(placeholder, uid: parentUid)
                placeholderCount += 1
                parent[node] = placeholder
            }
        }
        if !cached.isEmpty {
            let rows = try DirectStatement(db.makeStatement(sql: """
                SELECT m.arrival, m.responseToUid, p.arrival FROM inboxMessage m
                LEFT JOIN inboxMessage p ON p.sourceId = m.sourceId AND p.uid = m.responseToUid
                WHERE m.sourceId = ?1 AND m.responseToUid != '' ORDER BY m.arrival
                """), in: db)
            try rows.bind(1, sourceId)
            while try rows.nextRow() {
                guard let node = rows.int64(0).flatMap(cachedNode(arrival:)), incoming[Int(node)] < 0 else { continue }
                let parentUid = rows.text(1)
                try link(Int(node), to: rows.int64(2).flatMap(cachedNode(arrival:)) ?? nodes.newNode(of: parentUid), parentUid: parentUid)
            }
        }
        let rows = try DirectStatement(db.makeStatement(sql: """
            SELECT l.node, l.parentUid, n.node, m.arrival FROM inboxMergeLink l
            LEFT JOIN inboxMergeNode n ON n.uid = l.parentUid
            LEFT JOIN inboxMessage m ON m.sourceId = ?1 AND m.uid = l.parentUid
            WHERE l.parentUid != '' ORDER BY l.node
            """), in: db)
        try rows.bind(1, sourceId)
        while try rows.nextRow() {
            let found = rows.int64(2).map { Int32($0) } ?? rows.int64(3).flatMap(cachedNode(arrival:))
            try link(Int(rows.int64(0) ?? 0), to: found, parentUid: rows.text(1))
        }
        return (parent, placeholderCount)
    }

    /// Stores the copies of every uid whose copies this fetch changed; returns the uids that
    /// have copies afterwards (flagged `duplicateUid`).
    private func writeCopies(_ db: Database) throws -> Set<String> {
        var hasCopies = Set(cachedCopies.keys)
        guard let document else { return hasCopies }
        var written = InboxDocument.ScatteredReads()
        for uid in changedCopies {
            try db.execute(sql: "DELETE FROM inboxDuplicate WHERE sourceId = ? AND uid = ?", arguments: [sourceId, uid])
            let positions = incomingCopies[uid] ?? []
            for (offset, position) in positions.enumerated() {
                written.count(in: document)
                let entry = document.entry(at: Int(position))
                let raw = document.withRawText(of: entry) { String(decoding: $0, as: UTF8.self) }
                try db.execute(sql: "INSERT INTO inboxDuplicate(sourceId, uid, copy, raw, rawHash) VALUES (?, ?, ?, ?, ?)",
                               arguments: [sourceId, uid, offset + 2, raw, entry.rawHash])
            }
            if positions.isEmpty { hasCopies.remove(uid) } else { hasCopies.insert(uid) }
        }
        return hasCopies
    }

    /// The write transaction's statements, prepared once.
    private struct Statements {
        let insertMessage, updateMessage, updateThread, insertConversation, deleteConversationStatement: DirectStatement
        let selectFields: Statement
        let selectRoot, selectUid: DirectStatement
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
            updateThread = try DirectStatement(db.makeStatement(sql: "UPDATE inboxMessage SET sortKey = ?1, threadRoot = ?2, depth = ?3, flags = ?4 WHERE rowid = ?5"), in: db)
            deleteConversationStatement = try DirectStatement(db.makeStatement(sql: "DELETE FROM inboxConversation WHERE rootUid = ?1 AND sourceId = ?2"), in: db)
            insertConversation = try DirectStatement(db.makeStatement(sql: """
                INSERT INTO inboxConversation(\(ConversationRecord.columns), sourceId) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """), in: db)
            selectFields = try db.makeStatement(sql: "SELECT fromAddress, toAddress, subject, text, dateTime FROM inboxMessage WHERE rowid = ?")
            // Through SQLite's C API: asked once a cached conversation on a re-fetch (GRDB's
            // fetchOne was half the write of a 100,000-message re-fetch with 1 % changed).
            selectRoot = try DirectStatement(db.makeStatement(sql: "SELECT threadRoot FROM inboxMessage WHERE rowid = ?1"), in: db)
            selectUid = try DirectStatement(db.makeStatement(sql: "SELECT uid FROM inboxMessage WHERE rowid = ?1"), in: db)
        }

        func deleteConversation(_ rootUid: String) throws {
            try deleteConversationStatement.bind(1, rootUid)
            try deleteConversationStatement.bind(2, sourceId)
            try deleteConversationStatement.run()
        }

        /// The uid of a cached message.
        func cachedUid(_ rowid: Int64) throws -> String {
            try selectUid.bind(1, rowid)
            guard let value = try selectUid.firstText() else {
                throw ConnError.internalError("a message is in the merge but not in the cache")
            }
            return value
        }

        /// The root a cached message had before this fetch.
        func cachedRoot(_ rowid: Int64) throws -> String? {
            try selectRoot.bind(1, rowid)
            guard let value = try selectRoot.firstText() else {
                throw ConnError.internalError("a message is in the merge but not in the cache")
            }
            return value
        }

        /// The summary fields of a message this fetch did not change.
        func cachedFields(_ rowid: Int64) throws -> ConversationRecord.Fields {
            guard let row = try Row.fetchOne(selectFields, arguments: [rowid]) else {
                throw ConnError.internalError("a message is in the merge but not in the cache")
            }
            return ConversationRecord.Fields(from: row[0], to: row[1], subject: row[2], text: row[3], dateTime: row[4])
        }
    }
}
