import GRDB
import Testing

@testable import ConnInbox

@Suite("Direct statement")
struct DirectStatementTests {
    @Test("values land as GRDB would bind them: empty text is '', not NULL; nil is NULL; a failed step throws SQLite's error and the statement stays usable")
    func bindsAndReportsErrors() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t(id TEXT PRIMARY KEY, body TEXT NOT NULL, time REAL, n INTEGER)")
            let insert = try DirectStatement(db.makeStatement(sql: "INSERT INTO t(id, body, time, n) VALUES (?, ?, ?, ?)"), in: db)
            let rows: [(String, String, Double?, Int64)] = [("a", "", nil, 1), ("b", "héllo \u{301}", 1.5, Int64.max)]
            for (id, body, time, n) in rows {
                try insert.bind(1, id)
                var text = body
                try text.withUTF8 { try insert.bind(2, text: UnsafeRawBufferPointer($0)) }
                try insert.bind(3, time)
                try insert.bind(4, n)
                try insert.run()
            }
            let stored = try Row.fetchAll(db, sql: "SELECT id, body, typeof(body), time, n FROM t ORDER BY id")
            #expect(stored.map { $0[1] as String } == ["", "héllo \u{301}"])
            #expect(stored.map { $0[2] as String } == ["text", "text"])
            #expect(stored[0][3] as Double? == nil && stored[1][3] as Double? == 1.5)
            #expect(stored[1][4] as Int64 == Int64.max)

            try insert.bind(1, "a")  // the primary key again
            try insert.bind(2, "x")
            let error = #expect(throws: DatabaseError.self) { try insert.run() }
            #expect(error?.resultCode == .SQLITE_CONSTRAINT, "\(String(describing: error))")
            #expect(error?.sql?.contains("INSERT INTO t") == true)

            try insert.bind(1, "c")
            try insert.run()
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM t") == 3)
        }
    }

    @Test("rows read back as SQLite stored them: text with a NUL and non-ASCII whole, NULL as nil, and false after the last row")
    func readsRows() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t(id INTEGER, body TEXT, time REAL)")
            try db.execute(sql: "INSERT INTO t VALUES (1, 'x', 2.5), (NULL, NULL, NULL), (3, 7, 4)")
            let update = try DirectStatement(db.makeStatement(sql: "UPDATE t SET body = ? WHERE id = 1"), in: db)
            try update.bind(1, "a\u{0}b é")  // with its length: the NUL does not end it
            try update.run()
            let select = try DirectStatement(db.makeStatement(sql: "SELECT id, body, time FROM t ORDER BY rowid"), in: db)
            var rows: [(Int64?, String, Double?)] = []
            while try select.nextRow() { rows.append((select.int64(0), select.text(1), select.double(2))) }
            #expect(rows.count == 3)
            #expect(rows[0] == (1, "a\u{0}b é", 2.5))
            #expect(rows[1] == (nil, "", nil))
            #expect(rows[2] == (3, "7", 4.0))
            #expect(try select.nextRow(), "the statement was reset after its last row, so it runs again")
        }
    }
}
