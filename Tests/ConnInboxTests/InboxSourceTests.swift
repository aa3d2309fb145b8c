import ConnTestSupport
import Foundation
import Testing

/// The cache keeps a copy per inbox: fetching server B leaves A's copy, `list` reads the
/// configured server's copy only (never another's), an ETag goes only to the inbox it came
/// from, and `sources` says what is cached.
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

    @Test("server A then server B: each keeps its copy and its ETag; list reads the configured server's, offline too; another server's is never shown")
    func switchingServers() async throws {
        let home = try TemporaryDirectory()
        let routesA: [BadServer.Route] = [.answer("GET", "/inbox", status: 200, headers: [["ETag", "\"a1\""]],
                                                  body: try Self.inbox([("1", "from A"), ("2", "only on A")]))]
        // B gives the same ETag as A: were A's sent to B, B would answer as if it matched.
        let routesB: [BadServer.Route] = [.answer("GET", "/inbox", status: 200, headers: [["ETag", "\"a1\""]],
                                                  body: try Self.inbox([("1", "from B"), ("3", "only on B")]))]
        var urlA: URL?
        var urlB: URL?
        try await BadServer.with(routesA) { serverA in
            try await BadServer.with(routesB, host: "127.0.0.2") { serverB in
                (urlA, urlB) = (serverA.url, serverB.url)
                #expect(try await home.conn(["inbox", "fetch"], server: serverA.url).exitCode == 0)
                let fetchedB = try await home.conn(["inbox", "fetch"], server: serverB.url)
                #expect(fetchedB.exitCode == 0, "\(fetchedB.standardError)")
                #expect(try serverB.requests().allSatisfy { $0.header("If-None-Match") == nil }, "A's ETag was sent to B")
                let listedB = try await home.conn(["inbox", "list", "--json"], server: serverB.url)
                #expect(try subjects(listedB) == ["1": "from B", "3": "only on B"])
                let object = try #require(JSONSerialization.jsonObject(with: Data(listedB.standardOutput.utf8)) as? [String: Any])
                #expect(object["cacheSource"] as? String == serverB.url.absoluteString + "/inbox")

                // A's copy is still there, and its ETag goes to A (and only to A).
                #expect(try subjects(try await home.conn(["inbox", "list", "--json"], server: serverA.url)) == ["1": "from A", "2": "only on A"])
                #expect(try await home.conn(["inbox", "fetch"], server: serverA.url).exitCode == 0)
                #expect(try serverA.requests().last?.header("If-None-Match") == "\"a1\"")
            }
        }
        let (a, b) = (try #require(urlA), try #require(urlB))
        // Both servers gone: each one's copy, offline, with the URL written another way.
        let offlineA = try await home.conn(["inbox", "list", "--json"], server: URL(string: a.absoluteString + "/")!)
        #expect(try subjects(offlineA) == ["1": "from A", "2": "only on A"], "\(offlineA.standardError)")
        let threadB = try await home.conn(["inbox", "thread", "1", "--json"], server: b)
        #expect(try threadB.json()["subject"] as? String == "from B")
        #expect(try await home.conn(["inbox", "thread", "2"], server: b).exitCode == 69, "A's message shown from B's copy")

        // A server never fetched: nothing shown, the cached ones named.
        let other = try await home.conn(["inbox", "list"], server: URL(string: "http://127.0.0.3:9")!)
        #expect(other.exitCode == 69 && other.standardOutput.isEmpty)
        #expect(other.standardError.contains("no cached copy of the inbox of http://127.0.0.3:9/inbox") && other.standardError.contains(a.absoluteString + "/inbox"),
                "\(other.standardError)")

        let sources = try await home.conn(["inbox", "sources", "--json"], server: a)
        let entries = try #require(try sources.json()["sources"] as? [[String: Any]])
        #expect(Set(entries.compactMap { $0["inbox"] as? String }) == [a.absoluteString + "/inbox", b.absoluteString + "/inbox"])
        #expect(entries.filter { $0["configured"] as? Bool == true }.compactMap { $0["inbox"] as? String } == [a.absoluteString + "/inbox"])
        #expect(entries.allSatisfy { $0["messageCount"] as? Int == 2 })
        let text = try await home.conn(["inbox", "sources"], server: a)
        #expect(text.standardOutput.contains(a.absoluteString + "/inbox  (configured)") && text.standardOutput.contains("2 messages, fetched"), "\(text.standardOutput)")
    }
    @Test("no server configured: list and thread read the inbox of a full CONN_RESOURCES_INBOX URL, else the copy fetched last — list says so; sources marks the copy read, the same in text and JSON")
    func noServerConfigured() async throws {
        let home = try TemporaryDirectory()
        let routesA: [BadServer.Route] = [.answer("GET", "/inbox", status: 200, body: try Self.inbox([("1", "from A")]))]
        let routesB: [BadServer.Route] = [.answer("GET", "/inbox", status: 200, body: try Self.inbox([("1", "from B")]))]
        var urlA: URL?
        var urlB: URL?
        try await BadServer.with(routesA) { serverA in
            try await BadServer.with(routesB, host: "127.0.0.2") { serverB in
                (urlA, urlB) = (serverA.url, serverB.url)
                let fetchedA = try await home.conn(["inbox", "fetch"], server: serverA.url)
                let fetchedB = try await home.conn(["inbox", "fetch"], server: serverB.url)
                #expect(fetchedA.exitCode == 0 && fetchedB.exitCode == 0)
            }
        }
        let (inboxA, inboxB) = (try #require(urlA).absoluteString + "/inbox", try #require(urlB).absoluteString + "/inbox")
        // A full inbox URL and no server: that inbox's copy, though B's was fetched last.
        let named = try await home.conn(["inbox", "list", "--json"], env: ["CONN_RESOURCES_INBOX": inboxA])
        #expect(try subjects(named) == ["1": "from A"], "\(named.standardError)")
        #expect(try named.json()["cacheChosen"] as? String == "configured")
        let thread = try await home.conn(["inbox", "thread", "1", "--json"], env: ["CONN_RESOURCES_INBOX": inboxA])
        #expect(try thread.json()["subject"] as? String == "from A", "\(thread.standardError)")
        // Nothing configured: the copy fetched last, and stderr says so and how to choose.
        let latest = try await home.conn(["inbox", "list", "--json"])
        let latestChosen = try latest.json()["cacheChosen"] as? String
        #expect(try subjects(latest) == ["1": "from B"] && latestChosen == "latestFetched")
        let said = try await home.conn(["inbox", "list"])
        #expect(said.standardError.contains("cache of \(inboxB), fetched ") && said.standardError.contains(" — the latest fetched, as no server is configured"), "\(said.standardError)")
        // sources: the same copy marked in text and in JSON.
        for (env, marked, configured) in [([:], inboxB, false), (["CONN_RESOURCES_INBOX": inboxA], inboxA, true)] {
            let json = try await home.conn(["inbox", "sources", "--json"], env: env)
            let entries = try #require(try json.json()["sources"] as? [[String: Any]])
            #expect(entries.filter { $0["shown"] as? Bool == true }.compactMap { $0["inbox"] as? String } == [marked], "\(entries)")
            #expect(entries.filter { $0["configured"] as? Bool == true }.compactMap { $0["inbox"] as? String } == (configured ? [marked] : []), "\(entries)")
            let text = try await home.conn(["inbox", "sources"], env: env)
            let mark = configured ? "  (configured)" : "  (read by list and thread: the latest fetched, no server is configured)"
            #expect(text.standardOutput.contains(marked + mark), "\(text.standardOutput)")
            #expect(text.standardOutput.components(separatedBy: "  (").count == 2, "one copy marked: \(text.standardOutput)")
        }
    }
}
