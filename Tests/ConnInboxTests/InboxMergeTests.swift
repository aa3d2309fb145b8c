import ConnCore
import ConnTestSupport
import Foundation
import GRDB
import Testing

@testable import ConnInbox

/// A fetch writes only what changed. Whatever the sequence of fetches (late parents, updates,
/// cycles, duplicates, messages that vanish from the server), the cache must end up exactly as
/// if its threads and conversations had been computed from scratch over everything it holds.
/// A uid a document repeats is its first record; the later ones are kept as its copies.
@Suite("Inbox merge")
struct InboxMergeTests {
    struct StoredMessage {
        var uid, parent, threadRoot, flags, raw: String
        var parsedTime: Double?
        var arrival, depth: Int
        var sortKey: Double
    }

    func storedMessages(_ database: LocalDatabase) throws -> [StoredMessage] {
        try database.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT uid, responseToUid, threadRoot, flags, raw, parsedTime, arrival, depth, sortKey FROM inboxMessage ORDER BY arrival").map {
                StoredMessage(uid: $0[0], parent: $0[1], threadRoot: $0[2], flags: $0[3], raw: $0[4], parsedTime: $0[5], arrival: $0[6], depth: $0[7], sortKey: $0[8])
            }
        }
    }

    func storedConversations(_ database: LocalDatabase) throws -> [String: ConversationRecord] {
        try database.writer.read { db in
            try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT \(ConversationRecord.columns) FROM inboxConversation").map {
                let record = ConversationRecord(row: $0)
                return (record.rootUid, record)
            })
        }
    }

    /// Random documents over a small pool of uids, so that fetches overlap, update, re-link.
    func document(_ generator: inout some RandomNumberGenerator, round: Int) -> String {
        let pool = 24
        var records: [String] = []
        for _ in 0..<Int.random(in: 0..<14, using: &generator) {
            let uid = "m\(Int.random(in: 0..<pool, using: &generator))"
            let parent: String = switch Int.random(in: 0..<10, using: &generator) {
            case 0...3: ""
            case 4: uid  // answers itself
            default: "m\(Int.random(in: 0..<(pool + 4), using: &generator))"  // may be missing
            }
            let date = switch Int.random(in: 0..<4, using: &generator) {
            case 0: "soon"
            case 1: "Today"
            default: "2026-11-\(10 + Int.random(in: 0..<10, using: &generator))T10:00:00Z"
            }
            let subject = ["hello", "re: hello", "plan"][Int.random(in: 0..<3, using: &generator)]
            let to = ["a@x, b@x", " c@x ", ""][Int.random(in: 0..<3, using: &generator)]
            records.append(#"{"uid":"\#(uid)","from":"f\#(round % 3)@x","to":"\#(to)","subject":"\#(subject)","text":"t\#(round)","responseToUid":"\#(parent)","dateTime":"\#(date)"}"#)
        }
        return #"{"inbox":[\#(records.joined(separator: ","))]}"#
    }

    @Test("after any sequence of fetches, the cache equals a full recomputation")
    func incrementalEqualsFromScratch() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<25 {
            let directory = try TemporaryDirectory()
            let database = try LocalDatabase(path: directory.path + "/conn.sqlite", migrations: InboxMigrations.all)
            let cache = InboxCache(database: database)
            var everUids: Set<String> = []
            var latestRaw: [String: String] = [:]
            var latestCopies: [String: [String]] = [:]
            for round in 0..<8 {
                let json = document(&generator, round: round)
                let records = try InboxDocumentReader.read(Data(json.utf8), source: "s")
                let summary = try cache.store(records, etag: nil, requested: "s", source: "s", at: Date(timeIntervalSince1970: 1_795_000_000 + Double(round)))
                var seen: Set<String> = []
                for record in records {
                    let uid = record.email.uid
                    everUids.insert(uid)
                    if seen.insert(uid).inserted {
                        latestRaw[uid] = record.raw
                        latestCopies[uid] = []
                    } else {
                        latestCopies[uid]!.append(record.raw)
                    }
                }
                #expect(summary.duplicates == records.count - seen.count && summary.new + summary.updated + summary.unchanged == seen.count)
                try check(database, everUids: everUids, latestRaw: latestRaw, copies: latestCopies.filter { !$0.value.isEmpty }, json: json)
                // The same records again (a re-fetch where nothing changed): unchanged, and the
                // cache stays right — as the same bytes (the stored digest's shortcut) or laid out
                // otherwise (the merge, finding every record unchanged).
                if Bool.random(using: &generator) {
                    let sameBytes = Bool.random(using: &generator)
                    let layout = sameBytes ? "," : " ,\n "
                    let document = try InboxDocumentReader.document(Data(("{\"inbox\":[" + records.map(\.raw).joined(separator: layout) + "]}").utf8), source: "s")
                    let again = try cache.store(document, etag: nil, requested: "s", source: "s", at: Date(timeIntervalSince1970: 1_795_000_000 + Double(round) + 0.5))
                    #expect(again.new == 0 && again.updated == 0 && again.unchanged == seen.count && again.duplicates == records.count - seen.count, "\(json)")
                    #expect(again.fetched == summary.fetched && again.duplicateUids == summary.duplicateUids, "same bytes: \(sameBytes)")
                    try check(database, everUids: everUids, latestRaw: latestRaw, copies: latestCopies.filter { !$0.value.isEmpty }, json: json)
                }
            }
        }
    }

    func check(_ database: LocalDatabase, everUids: Set<String>, latestRaw: [String: String], copies: [String: [String]], json: String) throws {
        let messages = try storedMessages(database)
        // Nothing lost, nothing twice, the latest version of each, and of its copies.
        #expect(messages.map(\.uid).sorted() == everUids.sorted(), "\(json)")
        for message in messages { #expect(message.raw == latestRaw[message.uid], "\(message.uid)") }
        let storedCopies = try database.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT uid, raw FROM inboxDuplicate ORDER BY uid, copy").reduce(into: [String: [String]]()) { $0[$1[0], default: []].append($1[1]) }
        }
        #expect(storedCopies == copies, "\(json)")
        let duplicates = Set(copies.keys)

        // Sort keys: parsed time, else just after the last dated message that arrived earlier.
        var lastKnown = -Double.greatestFiniteMagnitude / 2
        for message in messages {
            let expected: Double
            if let parsed = message.parsedTime { lastKnown = parsed; expected = parsed } else { expected = lastKnown + Double(message.arrival) * 1e-6 }
            #expect(message.sortKey == expected, "\(message.uid)")
        }
        let ranked = messages.indices.sorted { (messages[$0].sortKey, messages[$0].arrival) < (messages[$1].sortKey, messages[$1].arrival) }
        var rank: [String: Int] = [:]
        for (position, index) in ranked.enumerated() { rank[messages[index].uid] = position }
        let forest = ThreadBuilder.build(messages.map { ThreadBuilder.Message(uid: $0.uid, parentUid: $0.parent, order: rank[$0.uid]!) })

        var expectedConversations: [String: ConversationRecord] = [:]
        let byUid = Dictionary(uniqueKeysWithValues: messages.map { ($0.uid, $0) })
        let fields = try database.writer.read { db in
            try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT uid, fromAddress, toAddress, subject, text, dateTime FROM inboxMessage").map {
                ($0[0] as String, ConversationRecord.Fields(from: $0[1], to: $0[2], subject: $0[3], text: $0[4], dateTime: $0[5]))
            })
        }
        for root in forest.roots {
            let members = forest.walk(from: root).filter { !$0.isPlaceholder }
            for node in members {
                let stored = byUid[node.uid]!
                var flags: [String] = []
                if node.brokeCycle { flags.append("cycleBroken") }
                if duplicates.contains(node.uid) { flags.append("duplicateUid") }
                if let parent = node.parentUid, forest.nodes[parent]!.isPlaceholder { flags.append("parentMissing") }
                #expect(stored.threadRoot == root && stored.depth == node.depth && stored.flags == flags.joined(separator: ","), "\(node.uid) in \(json)")
            }
            let record = ConversationRecord(rootUid: root, members: members.map { fields[$0.uid]! }, sortKeys: members.map { byUid[$0.uid]!.sortKey },
                                            missingParent: forest.nodes[root]!.isPlaceholder)
            expectedConversations[root] = record
        }
        let conversations = try storedConversations(database)
        // The count `inbox list` shows without counting: kept by every fetch.
        let kept = try database.writer.read { db in try Int.fetchOne(db, sql: "SELECT conversationCount FROM inboxSource") }
        #expect(kept == conversations.count, "\(json)")
        for root in Set(conversations.keys).union(expectedConversations.keys) where conversations[root] != expectedConversations[root] {
            Issue.record("conversation \(root): stored \(String(describing: conversations[root])), expected \(String(describing: expectedConversations[root])) after \(json)")
        }
    }

    @Test("threads and conversations written out by hand (an oracle apart from ThreadBuilder and ConversationRecord): a chain, an orphan whose parent arrives later, a cycle cut at its oldest message, a repeated uid")
    func handWrittenTrees() throws {
        func record(_ uid: String, _ from: String, _ to: String, _ subject: String, _ text: String, parent: String = "", at time: String) -> String {
            #"{"uid":"\#(uid)","from":"\#(from)","to":"\#(to)","subject":"\#(subject)","text":"\#(text)","responseToUid":"\#(parent)","dateTime":"2026-01-01T\#(time):00Z"}"#
        }
        let first = [
            record("a", "ann@x", "bob@x", "Plan", "first", at: "10:00"),
            record("b", "bob@x", "ann@x", "Re: Plan", "second", parent: "a", at: "10:05"),
            record("c", "cy@x", "ann@x, bob@x", "Re: Plan", "third", parent: "b", at: "10:10"),
            record("d", "dee@x", "ann@x", "Orphan", "lost", parent: "gone", at: "09:00"),
            record("e", "eve@x", "fay@x", "Loop", "one", parent: "f", at: "11:00"),
            record("f", "fay@x", "eve@x", "Re: Loop", "two", parent: "e", at: "11:01"),
            record("g", "gil@x", "ann@x", "Twice", "kept", at: "12:00"),
            record("g", "gil@x", "ann@x", "Twice", "copy", at: "12:01"),
        ]
        let directory = try TemporaryDirectory()
        let database = try LocalDatabase(path: directory.path + "/conn.sqlite", migrations: InboxMigrations.all)
        let cache = InboxCache(database: database)
        func fetch(_ records: [String]) throws {
            let json = #"{"inbox":[\#(records.joined(separator: ","))]}"#
            _ = try cache.store(try InboxDocumentReader.read(Data(json.utf8), source: "s"), etag: nil, requested: "s", source: "s", at: Date(timeIntervalSince1970: 1_795_000_000))
        }
        /// uid → "root depth flags", as the cache holds them.
        func threads() throws -> [String: String] {
            Dictionary(uniqueKeysWithValues: try storedMessages(database).map { ($0.uid, "\($0.threadRoot) \($0.depth) \($0.flags)") })
        }
        /// root → "subject | participants | count | last dateTime | snippet | missingParent".
        func conversations() throws -> [String: String] {
            try storedConversations(database).mapValues {
                "\($0.subject) | \($0.participants.joined(separator: " ")) | \($0.messageCount) | \($0.lastDateTime) | \($0.snippet) | \($0.missingParent)"
            }
        }

        try fetch(first)
        #expect(try threads() == [
            "a": "a 0 ", "b": "a 1 ", "c": "a 2 ",
            "d": "gone 1 parentMissing",
            "e": "e 0 cycleBroken", "f": "e 1 ",
            "g": "g 0 duplicateUid",
        ])
        #expect(try conversations() == [
            "a": "Plan | ann@x bob@x cy@x | 3 | 2026-01-01T10:10:00Z | third | false",
            "gone": "Orphan | dee@x ann@x | 1 | 2026-01-01T09:00:00Z | lost | true",
            "e": "Loop | eve@x fay@x | 2 | 2026-01-01T11:01:00Z | two | false",
            "g": "Twice | gil@x ann@x | 1 | 2026-01-01T12:00:00Z | kept | false",
        ])

        // The orphan's parent arrives: one conversation under it, no longer missing a parent.
        try fetch(first + [record("gone", "gus@x", "dee@x", "Original", "found", at: "08:00")])
        let after = try threads()
        #expect(after["gone"] == "gone 0 " && after["d"] == "gone 1 ", "\(after)")
        #expect(try conversations()["gone"] == "Original | gus@x dee@x ann@x | 2 | 2026-01-01T09:00:00Z | lost | false")
    }

    @Test("the cache reads the fields the reader read: a key repeated, a key spelled with escapes, unknown fields kept")
    func storedFieldsMatchTheReader() throws {
        let directory = try TemporaryDirectory()
        let database = try LocalDatabase(path: directory.path + "/conn.sqlite", migrations: InboxMigrations.all)
        let json = #"{"inbox":[{"uid":"1","subject":"first","subject":"second","x-extra":[1,{"a":null}]},{"uid":"2","su\u0062ject":"escaped key","text":"t"}]}"#
        let records = try InboxDocumentReader.read(Data(json.utf8), source: "s")
        _ = try InboxCache(database: database).store(records, etag: nil, requested: "s", source: "s", at: Date())
        let rows = try database.writer.read { db in try Row.fetchAll(db, sql: "SELECT uid, subject, raw FROM inboxMessage ORDER BY uid") }
        #expect(rows.map { $0[1] as String } == records.map(\.email.subject))
        #expect(rows.map { $0[1] as String } == ["first", "escaped key"])
        #expect((rows[0][2] as String).contains(#""x-extra":[1,{"a":null}]"#))
    }

    @Test("a cache written before fields were read from the raw JSON keeps its messages")
    func migratesVersionOneCaches() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/conn.sqlite"
        do {
            let old = try LocalDatabase(path: path, migrations: [InboxMigrations.all[0]])
            try old.writer.write { db in
                try db.execute(sql: """
                    INSERT INTO inboxMessage(uid, fromAddress, toAddress, subject, text, responseToUid, dateTime, parsedTime, arrival, sortKey, threadRoot, depth, flags, raw, fetchedAt)
                    VALUES ('1', 'a@x', 'b@x', 'old subject', 'body', '', 'Today', 5, 1, 5, '1', 0, '', ?, 5)
                    """, arguments: [#"{"uid":"1","from":"a@x","to":"b@x","subject":"old subject","text":"body","responseToUid":"","dateTime":"Today"}"#])
            }
        }
        let database = try LocalDatabase(path: path, migrations: InboxMigrations.all)
        let row = try #require(try database.writer.read { db in try Row.fetchOne(db, sql: "SELECT subject, fromAddress, threadRoot FROM inboxMessage WHERE uid = '1'") })
        #expect(row[0] as String == "old subject" && row[1] as String == "a@x" && row[2] as String == "1")
    }

    @Test("a cache written before records were compared by hash: the hash is filled in, and the same record fetched again is unchanged")
    func migratesVersionTwoCaches() throws {
        let raw = OlderInboxCache.record
        let cache = try OlderInboxCache(version: 2, raw: raw)
        let database = cache.database
        let hash = try cache.storedHash()
        let records = try InboxDocumentReader.read(Data(#"{"inbox":[\#(raw)]}"#.utf8), source: "s")
        #expect(hash == records[0].rawHash && hash != 0)
        let summary = try InboxCache(database: database).store(records, etag: nil, requested: "s", source: "s", at: Date())
        #expect(summary.unchanged == 1 && summary.updated == 0 && summary.new == 0, "\(summary)")
        var changed = records
        changed[0].raw = raw.replacingOccurrences(of: "body", with: "edited")
        #expect(changed[0].rawHash != records[0].rawHash)
        let again = try InboxCache(database: database).store(changed, etag: nil, requested: "s", source: "s", at: Date())
        #expect(again.updated == 1, "\(again)")
    }

    /// The merge threads with `ThreadForest` (node numbers, no uids); `inbox thread` with
    /// `ThreadLayout`. On random inboxes — cycles, self-replies, missing parents, equal dates —
    /// both must give the same conversations, in the same order, with the same depths.
    @Test("the merge's compact threading agrees with ThreadLayout on 300 random inboxes")
    func forestAgreesWithLayout() {
        var generator = SeededGenerator(seed: 55)
        for round in 0..<300 {
            let count = Int.random(in: 1...60, using: &generator)
            let uids = (0..<count).map { "m\($0)" }
            let parentUids = (0..<count).map { _ -> String in
                switch Int.random(in: 0..<10, using: &generator) {
                case 0..<3: return ""
                case 3: return "gone\(Int.random(in: 0..<4, using: &generator))"
                default: return "m\(Int.random(in: 0..<count, using: &generator))"
                }
            }
            // Few distinct keys: many ties, broken by arrival.
            let sortKeys = (0..<count).map { _ in Double(Int.random(in: 0..<8, using: &generator)) }
            let rank = Array(0..<count).sorted { sortKeys[$0] != sortKeys[$1] ? sortKeys[$0] < sortKeys[$1] : $0 < $1 }
            var order = [Int](repeating: 0, count: count)
            for (position, node) in rank.enumerated() { order[node] = position }
            let layout = ThreadLayout(uids: uids, parentUids: parentUids, order: order)

            var placeholders: [String: Int32] = [:]
            var parent = (0..<count).map { index -> Int32 in
                let parentUid = parentUids[index]
                if parentUid.isEmpty || parentUid == uids[index] { return -1 }
                if let known = uids.firstIndex(of: parentUid) { return Int32(known) }
                if let placeholder = placeholders[parentUid] { return placeholder }
                let placeholder = Int32(count + placeholders.count)
                placeholders[parentUid] = placeholder
                return placeholder
            }
            let forest = ThreadForest(parent: &parent, placeholderCount: placeholders.count, sortKeys: sortKeys)
            let placeholderUid = Dictionary(uniqueKeysWithValues: placeholders.map { ($1, $0) })
            func forestUid(_ node: Int32) -> String { Int(node) < count ? uids[Int(node)] : placeholderUid[node]! }

            #expect(forest.roots.map(forestUid) == layout.roots.map(layout.uid), "round \(round): roots")
            for (root, layoutRoot) in zip(forest.roots, layout.roots) {
                let walked = forest.walk(from: root)
                let expected = layout.walk(from: layoutRoot)
                #expect(walked.map { forestUid($0.node) } == expected.map(layout.uid), "round \(round): walk from \(forestUid(root))")
                #expect(walked.map { Int($0.depth) } == expected.map { layout.depth[$0] }, "round \(round): depths")
            }
            let cut = Set(forest.brokeCycle.map(forestUid))
            #expect(cut == Set((0..<count).filter { layout.brokeCycle[$0] }.map { uids[$0] }), "round \(round): cycles cut")
        }
    }
}
