import ConnTestSupport
import Foundation
import Testing

/// `conn inbox` as a user runs it: the real binary, the real conn-server, a real SQLite cache.
@Suite("conn inbox end to end")
struct InboxCommandTests {
    let home: TemporaryDirectory

    init() throws { home = try TemporaryDirectory() }

    func conn(_ arguments: [String], env: [String: String] = [:]) async throws -> ProcessOutcome {
        try await ConnProcess.run(ConnProcess.connPath, ["inbox"] + arguments, environment: home.environment.merging(env) { $1 })
    }


    static let seed003 = """
        {"inbox": [{"uid": "1", "from": "matt@gmail.com", "to": "jhon@gmail.com", "subject": "subject 1",
                    "text": "1) Lorem Ipsum is simply dummy text.", "responseToUid": "", "dateTime": "Today"}]}
        """

    @Test("seed 003's example: fetched, listed offline, threaded; a second fetch is a 304; -q prints nothing")
    func seedExample() async throws {
        let seed = try home.write("seed.json", Self.seed003)
        try await ServerProcess.with(["--seed", seed]) { url in
            let env = ["CONN_SERVER": url.absoluteString]
            var outcome = try await conn(["fetch", "--json"], env: env)
            #expect(outcome.exitCode == 0, "\(outcome.standardError)")
            var report = try outcome.json()
            #expect(report["new"] as? Int == 1 && report["notModified"] as? Bool == false)
            outcome = try await conn(["fetch", "--json"], env: env)
            report = try outcome.json()
            #expect(report["notModified"] as? Bool == true)
            // -q: nothing on stdout or stderr but errors, as `git fetch -q`; --json still prints.
            let quiet = try await conn(["fetch", "-q"], env: env)
            #expect(quiet.exitCode == 0 && quiet.standardOutput.isEmpty && quiet.standardError.isEmpty, "\(quiet.standardOutput) \(quiet.standardError)")
            let quietJSON = try await conn(["fetch", "-q", "--json"], env: env)
            #expect(try quietJSON.json()["notModified"] as? Bool == true)
        }
        // The server is gone: the cache still answers.
        let list = try await conn(["list", "--json"])
        #expect(list.exitCode == 0)
        let conversations = try #require(try list.json()["conversations"] as? [[String: Any]])
        #expect(conversations.count == 1)
        #expect(conversations[0]["subject"] as? String == "subject 1")
        #expect(conversations[0]["lastDateTime"] as? String == "Today")
        let thread = try await conn(["thread", "1"])
        #expect(thread.exitCode == 0)
        #expect(thread.standardOutput.contains("matt@gmail.com -> jhon@gmail.com"), "\(thread.standardOutput)")  // no UTF-8 locale here: ASCII
        let text = try await conn(["list"])
        // The age of the cache since the fetch above: "just now", or seconds on a loaded machine
        // (30 s once, on CI running the suites at once): the words are the proof, not the time.
        let age = text.standardError.contains("fetched just now")
            ? 0 : text.standardError.firstMatch(of: /fetched (\d+) seconds? ago/).flatMap { Int($0.1) }
        #expect(age.map { $0 < 600 } == true, "\(text.standardError)")
    }

    @Test("fetch from a server that is down: the failure, then the next step (conn probe, the cache offline), in text and in JSON's hint")
    func fetchFromADownServerSaysWhatNext() async throws {
        let down = "http://127.0.0.1:\(try HTTPPorts.closed())"
        let text = try await conn(["fetch"], env: ["CONN_SERVER": down])
        let lines = text.standardError.split(separator: "\n")
        #expect(text.exitCode == 69 && lines.count == 2 && lines[0].contains("refused the connection")
                && lines[1] == "conn: `conn probe` says which layer fails (`conn probe -v`, each rung); the copy fetched before still reads offline: `conn inbox list`.",
                "\(text.standardError)")
        let json = try await conn(["fetch", "--json"], env: ["CONN_SERVER": down])
        let error = try #require(JSONSerialization.jsonObject(with: Data(json.standardError.utf8)) as? [String: Any])["error"] as? [String: Any]
        #expect((error?["hint"] as? String)?.hasPrefix("`conn probe` says which layer fails") == true, "\(json.standardError)")
    }

    @Test("a bad answer leaves the cache exactly as it was and names the problem")
    func badAnswersLeaveTheCacheAlone() async throws {
        let seed = try home.write("seed.json", Self.seed003)
        try await ServerProcess.with(["--seed", seed]) { url in
            let fetched = try await conn(["fetch"], env: ["CONN_SERVER": url.absoluteString])
            #expect(fetched.exitCode == 0, "\(fetched.standardError)")
        }
        let before = try await conn(["list", "--json"]).standardOutput
        let files = try TemporaryDirectory()
        try files.write("types.json", #"{"inbox":[{"uid":"9","subject":42}]}"#)
        try files.write("truncated.json", #"{"inbox":[{"uid":"9","subject":"x""#)
        try files.write("page.json", "<!DOCTYPE html><html><body>Sign in</body></html>")
        try await StaticFileServer.with(directory: files.path) { base in
            for (file, fragment) in [("types.json", "inbox[0].subject that is a number"), ("truncated.json", "not valid JSON"), ("page.json", "HTML page")] {
                let outcome = try await conn(["fetch"], env: ["CONN_SERVER": base.absoluteString, "CONN_RESOURCES_INBOX": "\(base.absoluteString)/\(file)"])
                #expect(outcome.exitCode == 65, "\(file): \(outcome.standardError)")
                #expect(outcome.standardError.contains(fragment), "\(file): \(outcome.standardError)")
                #expect(outcome.standardError.contains("The cache was left as it was"))
            }
        }
        // Byte for byte, including when the cache was last filled (sorted keys make it stable).
        let after = try await conn(["list", "--json"]).standardOutput
        #expect(before == after)
    }

    @Test("an inbox at a full URL alone is enough: fetched and listed without a server; what needs one names the setting")
    func inboxURLAlone() async throws {
        let files = try TemporaryDirectory()
        try files.write("inbox.json", Self.seed003)
        try await StaticFileServer.with(directory: files.path) { base in
            let url = base.absoluteString + "/inbox.json"
            let alone = ["CONN_RESOURCES_INBOX": url, "CONN_TOKEN": "secret-token"]
            let fetched = try await conn(["fetch"], env: alone)
            #expect(fetched.exitCode == 0, "\(fetched.standardError)")
            #expect(fetched.standardOutput.contains("fetched 1 "), "\(fetched.standardOutput)")
            let listed = try await conn(["list", "--json"], env: alone)
            #expect((try listed.json()["conversations"] as? [Any])?.count == 1, "\(listed.standardOutput)")
            let shown = try await ConnProcess.run(ConnProcess.connPath, ["config", "show", "--json"], environment: home.environment.merging(alone) { $1 })
            #expect((try shown.json()["resources"] as? [String: String]) == ["inbox": url], "\(shown.standardOutput)")
        }
        // A path is not enough without a server: the error names both ways to give the inbox.
        let path = try await conn(["fetch"], env: ["CONN_RESOURCES_INBOX": "/inbox.json"])
        #expect(path.exitCode == 78, "\(path.standardError)")
        #expect(path.standardError.contains("no server is configured, and resources.inbox is not a full URL"), "\(path.standardError)")
        #expect(path.standardError.contains("CONN_RESOURCES_INBOX=https://host/inbox"), "\(path.standardError)")
        // What needs the server itself still asks for it.
        let send = try await ConnProcess.run(ConnProcess.connPath, ["send", "--to", "ann@example.com", "--subject", "s", "--text", "t"],
                                             environment: home.environment.merging(["CONN_RESOURCES_INBOX": "http://127.0.0.1:9/inbox"]) { $1 })
        #expect(send.standardError.contains("no server is configured"), "\(send.standardError)")
        let flush = try await ConnProcess.run(ConnProcess.connPath, ["outbox", "flush"],
                                              environment: home.environment.merging(["CONN_RESOURCES_INBOX": "http://127.0.0.1:9/inbox"]) { $1 })
        #expect(flush.exitCode == 78 && flush.standardError.contains("no server is configured: 1 message waits for one"), "\(flush.standardError)")
    }

    @Test("escape sequences from the server never reach the terminal")
    func sanitisesServerText() async throws {
        let seed = try home.write("seed.json", #"{"inbox":[{"uid":"1","from":"a@b.co","to":"c@d.co","subject":"\u001b]0;owned\u0007Hello \u001b[31mred","text":"body\u001b[2J","responseToUid":"","dateTime":"Today"}]}"#)
        try await ServerProcess.with(["--seed", seed]) { url in
            let fetched = try await conn(["fetch"], env: ["CONN_SERVER": url.absoluteString])
            #expect(fetched.exitCode == 0, "\(fetched.standardError)")
        }
        for arguments in [["list"], ["thread", "1"], ["thread", "1", "--flat"]] {
            let outcome = try await conn(arguments)
            #expect(!outcome.standardOutput.contains("\u{1B}"), "\(arguments)")
            #expect(outcome.standardOutput.contains("Hello red"))
        }
    }

    @Test("generated threads: placeholders for missing parents, prefixes, ascii, a deep thread capped, a deep message asked for shown")
    func threadsFromAGeneratedInbox() async throws {
        var chain = (0..<1000).map { #"{"uid":"c\#($0)","from":"a@b.co","to":"c@d.co","subject":"chain","text":"\#($0)","responseToUid":"\#($0 == 0 ? "" : "c\($0 - 1)")","dateTime":"Today"}"# }
        chain.append(#"{"uid":"orphan1","from":"a@b.co","to":"c@d.co","subject":"Re: lost","text":"x","responseToUid":"lost-parent","dateTime":"Today"}"#)
        chain.append(#"{"uid":"orphan2","from":"a@b.co","to":"c@d.co","subject":"Re: lost","text":"y","responseToUid":"lost-parent","dateTime":"Today"}"#)
        let seed = try home.write("seed.json", #"{"inbox":["# + chain.joined(separator: ",") + "]}")
        try await ServerProcess.with(["--seed", seed]) { url in
            let fetched = try await conn(["fetch"], env: ["CONN_SERVER": url.absoluteString])
            #expect(fetched.exitCode == 0, "\(fetched.standardError)")
        }
        var outcome = try await conn(["thread", "orphan2"])
        #expect(outcome.standardOutput.contains("[message lost-parent is not in the cache]"))
        #expect(outcome.standardOutput.contains("uid orphan1") && outcome.standardOutput.contains("uid orphan2"))
        outcome = try await conn(["thread", "orph"])
        #expect(outcome.exitCode == 64)
        #expect(outcome.standardError.contains("matches several messages"))
        outcome = try await conn(["thread", "c0", "--ascii", "--max-depth", "5"])
        #expect(outcome.exitCode == 0)
        #expect(outcome.standardOutput.contains("`- "))
        #expect(!outcome.standardOutput.contains("└─"))
        #expect(outcome.standardOutput.contains("994 deeper replies not drawn"))
        // A message deeper than --max-depth, asked for: it is shown, the path to it collapsed.
        outcome = try await conn(["thread", "c999", "--ascii", "--max-depth", "5"])
        #expect(outcome.standardOutput.contains(": 997 messages on the way (uids c1 ... c997): --max-depth 999 draws them")
                && outcome.standardOutput.contains("uid c998") && outcome.standardOutput.contains("> 999 a@b.co -> c@d.co  Today - uid c999"),
                "\(outcome.standardOutput)")
        outcome = try await conn(["thread", "c500", "--json"])
        let messages = try #require(try outcome.json()["messages"] as? [[String: Any]])
        #expect(messages.count == 1000)
        #expect(messages.last?["depth"] as? Int == 999)
        #expect(messages.last?["parentUid"] as? String == "c998")
        outcome = try await conn(["thread", "nope"])
        #expect(outcome.exitCode == 69)
    }

    @Test func listFiltersAndPages() async throws {
        try await ServerProcess.with(["--generate", "200"]) { url in
            let fetched = try await conn(["fetch"], env: ["CONN_SERVER": url.absoluteString])
            #expect(fetched.exitCode == 0, "\(fetched.standardError)")
        }
        let page1 = try #require(try (try await conn(["list", "--json", "--limit", "5"])).json()["conversations"] as? [[String: Any]])
        let page2 = try #require(try (try await conn(["list", "--json", "--limit", "5", "--offset", "5"])).json()["conversations"] as? [[String: Any]])
        #expect(page1.count == 5 && page2.count == 5)
        #expect(Set(page1.compactMap { $0["rootUid"] as? String }).isDisjoint(with: page2.compactMap { $0["rootUid"] as? String }))
        let matt = try #require(try (try await conn(["list", "--json", "--limit", "500", "--from", "matt@"])).json()["conversations"] as? [[String: Any]])
        #expect(!matt.isEmpty)
        #expect(matt.allSatisfy { ($0["participants"] as? [String])?.contains { $0.hasPrefix("matt@") } == true })
        let none = try #require(try (try await conn(["list", "--json", "--search", "no such words here"])).json()["conversations"] as? [[String: Any]])
        #expect(none.isEmpty)
        #expect(try await conn(["list", "--since", "whenever"]).exitCode == 64)

        // The list says what it leaves out: the total in JSON, "of N" on stderr in text.
        let paged = try await conn(["list", "--json", "--limit", "5"])
        let total = try #require(try paged.json()["total"] as? Int)
        #expect(total > 5, "\(paged.standardOutput.prefix(200))")
        let text = try await conn(["list", "--limit", "5", "--offset", "5"])
        #expect(text.standardError.contains("6–10 of \(total) conversations") && text.standardError.contains("--all"), "\(text.standardError)")
        let everything = try #require(try (try await conn(["list", "--json", "--all"])).json()["conversations"] as? [[String: Any]])
        #expect(everything.count == total)
        let allText = try await conn(["list", "--all"])
        #expect(!allText.standardError.contains(" of \(total) conversations"), "\(allText.standardError)")
        // A time ago, as every duration in conn: 7d, 36h; a unit it does not know is refused.
        for when in ["7d", "36h", "90m", "yesterday"] {
            #expect(try await conn(["list", "--since", when]).exitCode == 0, "--since \(when)")
            #expect(try await conn(["list", "--until", when, "--json"]).exitCode == 0, "--until \(when)")
        }
        #expect(try await conn(["list", "--since", "7x"]).exitCode == 64)
        let recent = try #require(try (try await conn(["list", "--json", "--all", "--since", "3650d"])).json()["total"] as? Int)
        let older = try #require(try (try await conn(["list", "--json", "--all", "--until", "3650d"])).json()["total"] as? Int)
        #expect(recent + older == total, "\(recent) + \(older) != \(total)")
    }

    @Test("dates for people: list and thread in the reader's zone (TZ Asia/Tokyo, America/St_Johns) or UTC; relative words as the server wrote them")
    func datesInTheReadersZone() async throws {
        let seed = try home.write("dated.json", """
            {"inbox": [{"uid": "n1", "from": "a@b.cc", "to": "me@x.cc", "subject": "late new year", "text": "t", "responseToUid": "",
                        "dateTime": "Wed, 01 Jan 2025 23:30:00 +0000"},
                       {"uid": "t1", "from": "a@b.cc", "to": "me@x.cc", "subject": "said today", "text": "t", "responseToUid": "",
                        "dateTime": "Today"}]}
            """)
        try await ServerProcess.with(["--seed", seed]) { url in
            let fetched = try await conn(["fetch"], env: ["CONN_SERVER": url.absoluteString])
            #expect(fetched.exitCode == 0, "\(fetched.standardError)")
        }
        func line(_ subject: String, _ env: [String: String], _ extra: [String] = []) async throws -> String {
            let listed = try await conn(["list", "--all"] + extra, env: env)
            return listed.standardOutput.split(separator: "\n").first { $0.hasPrefix(subject) }.map(String.init) ?? listed.standardOutput
        }
        #expect(try await line("late new year", ["TZ": "Asia/Tokyo"]).hasSuffix("2 Jan 2025"))
        #expect(try await line("late new year", ["TZ": "America/St_Johns"]).hasSuffix("1 Jan 2025"))
        #expect(try await line("late new year", ["TZ": "Asia/Tokyo"], ["--utc"]).hasSuffix("1 Jan 2025"))
        #expect(try await line("said today", ["TZ": "Asia/Tokyo"]).hasSuffix("Today"))
        let thread = try await conn(["thread", "n1"], env: ["TZ": "Asia/Tokyo"])
        #expect(thread.standardOutput.contains("2025-01-02 08:30:00 +0900"), "\(thread.standardOutput)")
        let utc = try await conn(["thread", "n1", "--utc"], env: ["TZ": "America/St_Johns"])
        #expect(utc.standardOutput.contains("2025-01-01 23:30:00 UTC"), "\(utc.standardOutput)")
        // JSON keeps the server's text and the instant, whatever the zone.
        let json = try await conn(["thread", "n1", "--json"], env: ["TZ": "Asia/Tokyo"])
        #expect(json.standardOutput.contains("Wed, 01 Jan 2025 23:30:00 +0000"), "\(json.standardOutput)")
        // A zone file named the POSIX way is read; a zone that does not exist is UTC, said once.
        let colon = try await conn(["thread", "n1"], env: ["TZ": ":Asia/Tokyo"])
        #expect(colon.standardOutput.contains("2025-01-02 08:30:00 +0900") && colon.standardError.isEmpty, "\(colon.standardOutput) \(colon.standardError)")
        for bad in ["Mars/Olympus_Mons", "JST-9"] {
            let shown = try await conn(["thread", "n1"], env: ["TZ": bad])
            #expect(shown.exitCode == 0 && shown.standardOutput.contains("2025-01-01 23:30:00 +0000"), "\(shown.standardOutput)")
            #expect(shown.standardError.components(separatedBy: "TZ=\(bad) names no time zone").count == 2, "\(shown.standardError)")
        }
        let quiet = try await conn(["thread", "n1", "--json"], env: ["TZ": "Mars/Olympus_Mons"])
        #expect(quiet.standardError.contains("names no time zone"), "a warning is for people on stderr, JSON or not")
    }

    @Test func fetchWithoutAServerIsAClearError() async throws {
        var outcome = try await conn(["fetch"])
        #expect(outcome.exitCode == 78)
        #expect(outcome.standardError.contains("no server is configured"))
        outcome = try await conn(["fetch"], env: ["CONN_SERVER": "http://127.0.0.1:\(try HTTPPorts.closed())"])
        #expect(outcome.exitCode == 69)
    }
}
