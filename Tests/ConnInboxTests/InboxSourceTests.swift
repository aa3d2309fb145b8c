import ConnTestSupport
import Foundation
import Testing

/// The cache holds one inbox, the one asked for: fetching another server's inbox replaces it
/// (never a mix of two servers' uids), an ETag goes only to the inbox it came from, and reading a
/// cache of another inbox says so.
@Suite("inbox cache per source")
struct InboxSourceTests {
    static func inbox(_ emails: [(uid: String, subject: String)]) throws -> String {
        let records = emails.map { ["uid": $0.uid, "from": "a@b.cc", "to": "c@d.ee", "subject": $0.subject, "text": "t", "responseToUid": "", "dateTime": "Today"] }
        return String(decoding: try JSONSerialization.data(withJSONObject: ["inbox": records]), as: UTF8.self)
    }

    func subjects(_ outcome: ProcessOutcome) throws -> [String: String] {
        let object = try #require(JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any], "\(outcome.standardError)")
        let conversations = try #require(object["conversations"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: conversations.map { ($0["rootUid"] as! String, $0["subject"] as! String) })
    }

    @Test("server A then server B: B's inbox only, A's ETag not sent to B; listing B's cache with A configured warns")
    func switchingServers() async throws {
        let home = try TemporaryDirectory()
        let routesA: [BadServer.Route] = [.answer("GET", "/inbox", status: 200, headers: [["ETag", "\"a1\""]],
                                                  body: try Self.inbox([("1", "from A"), ("2", "only on A")]))]
        // B answers 304 to a conditional request, as a server whose ETag happened to match would.
        let routesB: [BadServer.Route] = [.answer("GET", "/inbox", status: 200, headers: [["ETag", "\"a1\""]],
                                                  body: try Self.inbox([("1", "from B"), ("3", "only on B")]))]
        try await BadServer.with(routesA) { serverA in
            try await BadServer.with(routesB, host: "127.0.0.2") { serverB in
                #expect(try await home.conn(["inbox", "fetch"], server: serverA.url).exitCode == 0)
                #expect(try subjects(try await home.conn(["inbox", "list", "--json"], server: serverA.url)) == ["1": "from A", "2": "only on A"])

                let fetchedB = try await home.conn(["inbox", "fetch"], server: serverB.url)
                #expect(fetchedB.exitCode == 0, "\(fetchedB.standardError)")
                #expect(try serverB.requests().allSatisfy { $0.header("If-None-Match") == nil }, "A's ETag was sent to B")
                let listedB = try await home.conn(["inbox", "list", "--json"], server: serverB.url)
                #expect(try subjects(listedB) == ["1": "from B", "3": "only on B"])
                let object = try #require(JSONSerialization.jsonObject(with: Data(listedB.standardOutput.utf8)) as? [String: Any])
                #expect(object["cacheSource"] as? String == serverB.url.absoluteString + "/inbox")

                // Configured for A again, the cache still holds B's inbox: listed, with a warning.
                let stale = try await home.conn(["inbox", "list"], server: serverA.url)
                #expect(stale.standardError.contains("holds the inbox of \(serverB.url.absoluteString)/inbox"), "\(stale.standardError)")
                // Back to A: its own ETag is sent again only once the cache is A's.
                #expect(try await home.conn(["inbox", "fetch"], server: serverA.url).exitCode == 0)
                #expect(try serverA.requests().allSatisfy { $0.header("If-None-Match") == nil })
                #expect(try await home.conn(["inbox", "fetch"], server: serverA.url).exitCode == 0)
                #expect(try serverA.requests().last?.header("If-None-Match") == "\"a1\"")
            }
        }
    }
}
