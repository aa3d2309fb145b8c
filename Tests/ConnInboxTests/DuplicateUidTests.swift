import ConnCore
import ConnTestSupport
import Foundation
import GRDB
import Testing

@testable import ConnInbox

/// Nothing the server sent is dropped: records that repeat a uid are kept beside the message,
/// counted in the fetch's summary, readable in the thread, and an unchanged document fetched
/// again is "unchanged".
@Suite("inbox: duplicate uids")
struct DuplicateUidTests {
    static let document = """
        {"inbox":[
         {"uid":"1","from":"ann@x","to":"bob@x","subject":"plan","text":"first copy","responseToUid":"","dateTime":"2026-11-20T10:00:00Z"},
         {"uid":"2","from":"bob@x","to":"ann@x","subject":"re: plan","text":"a reply","responseToUid":"1","dateTime":"2026-11-20T11:00:00Z"},
         {"uid":"1","from":"eve@x","to":"bob@x","subject":"other","text":"second copy","responseToUid":"","dateTime":"2026-11-20T12:00:00Z"}
        ]}
        """

    @Test("both records of uid 1 kept and shown, counted in the summary; the same document again is unchanged")
    func keptCountedShown() async throws {
        let home = try TemporaryDirectory()
        let routes: [BadServer.Route] = [.answer("GET", "/inbox", status: 200, headers: [], body: Self.document)]
        try await BadServer.with(routes) { server in
            let fetched = try await home.conn(["inbox", "fetch", "--json"], server: server.url)
            let summary = try fetched.json()
            #expect(summary["fetched"] as? Int == 3 && summary["new"] as? Int == 2 && summary["duplicates"] as? Int == 1, "\(fetched.standardOutput)")
            #expect(summary["duplicateUids"] as? [String] == ["1"])

            let again = try await home.conn(["inbox", "fetch"], server: server.url)
            #expect(again.standardOutput.contains("0 new, 0 updated, 2 unchanged"), "\(again.standardOutput)")
            #expect(again.standardOutput.contains("1 of them repeated the uid of an earlier one (uid 1)"), "\(again.standardOutput)")

            let thread = try await home.conn(["inbox", "thread", "1", "--json"], server: server.url)
            let messages = try #require(try thread.json()["messages"] as? [[String: Any]])
            // The message (its first record), its reply, then the copy after the reply.
            #expect(messages.map { $0["text"] as? String } == ["first copy", "a reply", "second copy"])
            #expect(messages.map { $0["copy"] as? Int } == [nil, nil, 2])
            #expect(messages[0]["flags"] as? [String] == ["duplicateUid"] && messages[2]["flags"] as? [String] == ["duplicateUid"])
            #expect(messages[2]["from"] as? String == "eve@x" && messages[2]["depth"] as? Int == 0)

            let text = try await home.conn(["inbox", "thread", "1"], server: server.url)
            #expect(text.standardOutput.contains("uid 1 (copy 2)") && text.standardOutput.contains("second copy"), "\(text.standardOutput)")
        }
    }

    @Test("a document that stops repeating the uid: the copy goes and the flag with it, counted as an update")
    func copyGoes() throws {
        let directory = try TemporaryDirectory()
        let database = try LocalDatabase(path: directory.path + "/conn.sqlite", migrations: InboxMigrations.all)
        let cache = InboxCache(database: database)
        let url = "http://127.0.0.1:1/inbox"
        _ = try cache.store(try InboxDocumentReader.read(Data(Self.document.utf8), source: url), etag: nil, requested: url, source: url, at: Date())
        let once = Self.document.replacingOccurrences(of: #"{"uid":"1","from":"eve@x"#, with: #"{"uid":"3","from":"eve@x"#)
        let summary = try cache.store(try InboxDocumentReader.read(Data(once.utf8), source: url), etag: nil, requested: url, source: url, at: Date())
        #expect(summary.new == 1 && summary.updated == 1 && summary.unchanged == 1 && summary.duplicates == 0, "\(summary)")
        let (copies, flags) = try database.writer.read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM inboxDuplicate"), try String.fetchOne(db, sql: "SELECT flags FROM inboxMessage WHERE uid = '1'"))
        }
        #expect(copies == 0 && flags == "")
    }
}
