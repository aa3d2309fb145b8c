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
}
