import ConnTestSupport
import Foundation
import Testing

/// The token goes to the configured server's origin only (scheme, host, port), whatever command
/// connects, whatever URL the command line or a profile names, and whatever a redirect says. The
/// configured server and a third party are both hostile servers that log what they hear: the
/// first on 127.0.0.1, the other on 127.0.0.2.
@Suite("credentials reach the configured server only")
struct CredentialScopeTests {
    static let token = "tok-4f1d9c-secret"

    static let thirdPartyRoutes: [BadServer.Route] = [
        .answer("GET", "/inbox", status: 200, body: #"{"inbox":[]}"#),
        .answer("GET", "/time", status: 200, body: #"{"t2":1795380311432,"t3":1795380311433}"#),
        BadServer.Route(path: "/ws", websocket: .init(frames: [#"{"type":"hello","serverTime":1795380311432}"#], holdMs: 3000)),
        .answer(nil, "*", status: 200, body: "{}"),
    ]

    /// Runs `body` with the configured server (answering `serverRoutes`) and a third party.
    func withServers(_ serverRoutes: [BadServer.Route], _ body: (BadServer, BadServer, TemporaryDirectory) async throws -> Void) async throws {
        let home = try TemporaryDirectory()
        try await BadServer.with(Self.thirdPartyRoutes, host: "127.0.0.2") { third in
            try await BadServer.with(serverRoutes) { server in
                try await body(server, third, home)
            }
        }
    }

    func conn(_ arguments: [String], home: TemporaryDirectory, server: BadServer, env: [String: String] = [:]) async throws -> ProcessOutcome {
        let environment = home.environment.merging(["CONN_SERVER": server.url.absoluteString, "CONN_TOKEN": Self.token]) { $1 }
        return try await ConnProcess.run(ConnProcess.connPath, arguments, environment: environment.merging(env) { $1 })
    }

    /// The third party was asked something, and never with the token.
    func expectAskedWithoutToken(_ third: BadServer, _ what: String) throws {
        let requests = try third.requests()
        #expect(!requests.isEmpty, "\(what): the third party was not contacted, so the check proves nothing")
        for request in requests {
            #expect(request.header("Authorization") == nil, "\(what) sent the token to \(third.url) \(request.path)")
            #expect(!request.body.contains(Self.token) && !request.path.contains(Self.token))
        }
    }

    @Test("clock-offset --url and --method ws elsewhere, probe URL, inbox at another origin, watch's link elsewhere: no token")
    func commandsNamingAnotherOrigin() async throws {
        try await withServers(Self.thirdPartyRoutes) { server, third, home in
            let elsewhere = third.url.absoluteString
            _ = try await conn(["clock-offset", "--method", "http-date", "--url", elsewhere + "/", "--samples", "1"], home: home, server: server)
            try expectAskedWithoutToken(third, "clock-offset --method http-date --url")
        }
        try await withServers(Self.thirdPartyRoutes) { server, third, home in
            _ = try await conn(["probe", third.url.absoluteString + "/health"], home: home, server: server)
            try expectAskedWithoutToken(third, "probe URL")
            // The configured server still gets it: the rule is not "never send the token".
            _ = try await conn(["probe"], home: home, server: server)
            #expect(try server.requests().contains { $0.header("Authorization") == "Bearer \(Self.token)" })
        }
        try await withServers(Self.thirdPartyRoutes) { server, third, home in
            let fetched = try await conn(["inbox", "fetch"], home: home, server: server,
                                         env: ["CONN_RESOURCES_INBOX": third.url.absoluteString + "/inbox"])
            #expect(fetched.exitCode == 0, "\(fetched.standardError)")
            try expectAskedWithoutToken(third, "inbox fetch with the inbox at another origin")
        }
        try await withServers(Self.thirdPartyRoutes) { server, third, home in
            let wsURL = "ws://127.0.0.2:\(third.url.port!)/ws"
            _ = try await conn(["clock-offset", "--method", "ws", "--samples", "1", "--timeout", "2s"], home: home, server: server,
                               env: ["CONN_RESOURCES_WS": wsURL])
            _ = try await conn(["watch", "--no-internet", "--until", "offline", "--timeout", "4s"], home: home, server: server,
                               env: ["CONN_RESOURCES_WS": wsURL])
            try expectAskedWithoutToken(third, "the WebSocket at another origin")
            #expect(try third.requests().filter { $0.path == "/ws" }.count >= 2)
        }
    }

    @Test("a redirect to another origin is not followed: inbox fetch and clock-offset refuse it, naming both ends; the target hears nothing")
    func redirectsToAnotherOrigin() async throws {
        try await withServers([]) { _, third, _ in
            let routes: [BadServer.Route] = [
                .redirect("GET", "/inbox", status: 302, to: third.url.absoluteString + "/inbox"),
                .redirect("GET", "/time", status: 301, to: third.url.absoluteString + "/time"),
            ]
            try await BadServer.with(routes) { server in
                let home = try TemporaryDirectory()
                let fetched = try await conn(["inbox", "fetch"], home: home, server: server)
                #expect(fetched.exitCode == 69, "\(fetched.standardError)")
                #expect(fetched.standardError.contains("redirected") && fetched.standardError.contains("127.0.0.2"), "\(fetched.standardError)")
                let clock = try await conn(["clock-offset", "--method", "json", "--samples", "1"], home: home, server: server)
                #expect(clock.exitCode != 0 && clock.standardError.contains("redirected"), "\(clock.standardError)")
                #expect(try server.requests().count >= 2)
            }
            #expect(try third.requests().isEmpty, "a redirect was followed to \(third.url)")
        }
    }

    @Test("clock-offset --method json: a redirect within the origin is followed once, with the token; the samples ask the final URL")
    func sameOriginRedirectOfTheTimeResource() async throws {
        let routes: [BadServer.Route] = [
            .redirect("GET", "/time", status: 308, to: "/v2/time"),
            .answer("GET", "/v2/time", status: 200, body: #"{"t2":{now},"t3":{now}}"#),
        ]
        try await withServers(routes) { server, _, home in
            let clock = try await conn(["clock-offset", "--method", "json", "--samples", "2", "--interval", "10ms"], home: home, server: server)
            #expect(clock.exitCode == 0, "\(clock.standardError)")
            let requests = try server.requests()
            #expect(requests.map(\.path) == ["/time", "/v2/time", "/v2/time", "/v2/time"])
            #expect(requests.allSatisfy { $0.header("Authorization") == "Bearer \(Self.token)" })
        }
    }

    @Test("a redirect within the server's origin is followed, with the token, and the cache records the final URL")
    func sameOriginRedirect() async throws {
        let routes: [BadServer.Route] = [
            .redirect("GET", "/inbox", status: 302, to: "/v2/inbox"),
            .answer("GET", "/v2/inbox", status: 200, body: #"{"inbox":[{"uid":"1","from":"a@b.cc","to":"c@d.ee","subject":"s","text":"t","responseToUid":"","dateTime":"Today"}]}"#),
        ]
        try await withServers(routes) { server, _, home in
            let fetched = try await conn(["inbox", "fetch", "--json"], home: home, server: server)
            #expect(fetched.exitCode == 0, "\(fetched.standardError)")
            let requests = try server.requests()
            #expect(requests.map(\.path) == ["/inbox", "/v2/inbox"])
            #expect(requests.allSatisfy { $0.header("Authorization") == "Bearer \(Self.token)" })
            let report = try #require(JSONSerialization.jsonObject(with: Data(fetched.standardOutput.utf8)) as? [String: Any])
            #expect(report["source"] as? String == server.url.absoluteString + "/v2/inbox")
        }
    }

    @Test("a token in the config file belongs to the file's server: --server or CONN_SERVER naming another origin (another host, http for https) does not get it; a refusal then says why (77); CONN_TOKEN goes with the server given beside it")
    func fileTokenStaysWithItsServer() async throws {
        try await withServers(Self.thirdPartyRoutes) { server, third, home in
            try home.write("config/conn/config.yaml", "server: https://api.example.com\ntoken: \(Self.token)\n")
            let environment = home.environment
            // --server and CONN_SERVER at the third party: asked, never with the token.
            _ = try await ConnProcess.run(ConnProcess.connPath, ["--server", third.url.absoluteString, "inbox", "fetch"], environment: environment)
            _ = try await ConnProcess.run(ConnProcess.connPath, ["probe"], environment: environment.merging(["CONN_SERVER": third.url.absoluteString]) { $1 })
            try expectAskedWithoutToken(third, "--server/CONN_SERVER with a file token")
            let shown = try await ConnProcess.run(ConnProcess.connPath, ["--server", third.url.absoluteString, "config", "show"], environment: environment)
            #expect(!shown.standardOutput.contains("<redacted>"), "config show claims a token: \(shown.standardOutput)")
        }
        // A server that wants the token refuses the request: 77, naming where the token belongs.
        try await ServerProcess.with(["--token", Self.token]) { url in
            let home = try TemporaryDirectory()
            try home.write("config/conn/config.yaml", "server: https://api.example.com\ntoken: \(Self.token)\n")
            let refused = try await ConnProcess.run(ConnProcess.connPath, ["--server", url.absoluteString, "inbox", "fetch"], environment: home.environment)
            #expect(refused.exitCode == 77, "\(refused.exitCode) \(refused.standardError)")
            #expect(refused.standardError.contains("issued for https://api.example.com:443") && refused.standardError.contains("conn login"),
                    "\(refused.standardError)")
            // The same host over http is another origin: a token for https is never sent in clear.
            try home.write("config/conn/config.yaml", "server: https://127.0.0.1:\(url.port!)\ntoken: \(Self.token)\n")
            let downgraded = try await ConnProcess.run(ConnProcess.connPath, ["--server", url.absoluteString, "inbox", "fetch"], environment: home.environment)
            #expect(downgraded.exitCode == 77, "\(downgraded.standardError)")
            // No token at all: the refusal says none was sent, not "check the token".
            let none = try TemporaryDirectory()
            let anonymous = try await ConnProcess.run(ConnProcess.connPath, ["--server", url.absoluteString, "inbox", "fetch"], environment: none.environment)
            #expect(anonymous.exitCode == 77 && anonymous.standardError.contains("no token was sent") && anonymous.standardError.contains("conn login"),
                    "\(anonymous.standardError)")
            // The file's own server, and CONN_TOKEN named with another server: the token goes.
            try home.write("config/conn/config.yaml", "server: \(url.absoluteString)\ntoken: \(Self.token)\n")
            #expect(try await ConnProcess.run(ConnProcess.connPath, ["inbox", "fetch"], environment: home.environment).exitCode == 0)
            try home.write("config/conn/config.yaml", "server: https://api.example.com\n")
            let named = try await ConnProcess.run(ConnProcess.connPath, ["--server", url.absoluteString, "inbox", "fetch"],
                                                  environment: home.environment.merging(["CONN_TOKEN": Self.token]) { $1 })
            #expect(named.exitCode == 0, "\(named.standardError)")
        }
    }
}

/// A password written into a URL is refused wherever a URL is taken, and never echoed: not in the
/// error, not in the database (nothing is written), not to a server.
@Suite("user:password@ in URLs")
struct URLUserinfoTests {
    static let password = "pw-9f27c1e"

    func expectRefused(_ outcome: ProcessOutcome, _ code: Int32, _ what: String) {
        #expect(outcome.exitCode == code, "\(what): exit \(outcome.exitCode) \(outcome.standardError)")
        #expect(outcome.standardError.contains("user name or password"), "\(what): \(outcome.standardError)")
        #expect(!outcome.standardError.contains(Self.password) && !outcome.standardOutput.contains(Self.password), "\(what) echoed the password")
    }

    @Test("--server, CONN_SERVER, the config file, a resource, probe targets, --url, --internet-url: refused, password never printed")
    func refusedEverywhere() async throws {
        let home = try TemporaryDirectory()
        let url = "http://alice:\(Self.password)@127.0.0.1:1"
        for command in [["probe"], ["inbox", "fetch"], ["send", "--to", "a@b.cc", "--subject", "s", "--text", "t"], ["config", "show"]] {
            expectRefused(try await home.conn(command + ["--server", url]), 64, "\(command) --server")
            expectRefused(try await home.conn(command, env: ["CONN_SERVER": url]), 78, "\(command) CONN_SERVER")
        }
        expectRefused(try await home.conn(["inbox", "fetch"], env: ["CONN_SERVER": "http://127.0.0.1:1", "CONN_RESOURCES_INBOX": url + "/inbox"]), 78, "resource")
        expectRefused(try await home.conn(["probe", url + "/health"]), 64, "probe target")
        expectRefused(try await home.conn(["clock-offset", "--method", "http-date", "--url", url]), 64, "clock-offset --url")
        expectRefused(try await home.conn(["probe", "--internet-url", url + "/"]), 64, "--internet-url")
        try home.write("config/conn/config.yaml", "server: \(url)\n")
        expectRefused(try await home.conn(["config", "show"]), 78, "config file")
        #expect(!FileManager.default.fileExists(atPath: home.path + "/data/conn/conn.sqlite"), "a refused send queued something")
    }

    /// A database an older conn wrote while it still took such URLs: the inbox source and the
    /// outbox's errors named the URL with its password. The upgrade rewrites them, and the old
    /// text is gone from the file itself, not only from what queries return.
    @Test("a database written before the refusal: stored URLs lose their password on upgrade")
    func storedURLsRedacted() async throws {
        let home = try TemporaryDirectory()
        let database = home.path + "/data/conn/conn.sqlite"
        let created = try await home.conn(["outbox", "list"], env: ["CONN_SERVER": "http://127.0.0.1:1"])
        #expect(created.exitCode == 0, "\(created.standardError)")
        let url = "http://alice:\(Self.password)@127.0.0.1:1"
        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1]); url = sys.argv[2]
            db.execute("INSERT INTO meta(key, value, updatedAt) VALUES ('inbox.source', ?, '2026-01-01'), ('inbox.requested', ?, '2026-01-01')", (url + "/inbox", url + "/inbox"))
            db.execute("INSERT INTO outboxMessage(id, toAddress, subject, text, createdAt, state, lastError, nextAttemptAt) VALUES ('7c9e6679-7425-40de-944b-e07fc1f90ae7', 'a@b.cc', 's', 't', 0, 'pending', ?, 0)", ("cannot reach " + url + "/messages: refused",))
            db.execute("INSERT INTO outboxAttempt(messageId, number, leaseOwner, startedAt, outcome, detail) VALUES ('7c9e6679-7425-40de-944b-e07fc1f90ae7', 1, 'x', 0, 'retry', ?)", ("POST " + url + "/messages (a " + url + "/ redirect)",))
            db.execute("DELETE FROM grdb_migrations WHERE identifier IN ('core.v2.redactUserinfo', 'outbox.v2.redactUserinfo')")
            db.commit(); db.close()
            """
        let planted = try await ConnProcess.run("/usr/bin/python3", ["-c", script, database, url], environment: [:])
        #expect(planted.exitCode == 0, "\(planted.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: database)).range(of: Data(Self.password.utf8)) != nil, "the planted rows are not in the file")

        let listed = try await home.conn(["outbox", "list", "--json", "--all"], env: ["CONN_SERVER": "http://127.0.0.1:1"])
        #expect(listed.exitCode == 0, "\(listed.standardError)")
        #expect(!listed.standardOutput.contains(Self.password), "\(listed.standardOutput)")
        #expect(listed.standardOutput.contains("http://***@127.0.0.1:1/messages"), "\(listed.standardOutput)")

        let dump = try await ConnProcess.run("/usr/bin/python3", ["-c", """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            for sql in ["SELECT value FROM meta", "SELECT lastError FROM outboxMessage", "SELECT detail FROM outboxAttempt"]:
                for (value,) in db.execute(sql): print(value)
            """, database], environment: [:])
        #expect(!dump.standardOutput.contains(Self.password), "\(dump.standardOutput)")
        #expect(dump.standardOutput.contains("POST http://***@127.0.0.1:1/messages (a http://***@127.0.0.1:1/ redirect)"), "\(dump.standardOutput)")
        #expect(dump.standardOutput.contains("http://***@127.0.0.1:1/inbox"), "\(dump.standardOutput)")
        for file in [database, database + "-wal"] where FileManager.default.fileExists(atPath: file) {
            #expect(try Data(contentsOf: URL(fileURLWithPath: file)).range(of: Data(Self.password.utf8)) == nil, "the password is still in \(file)")
        }
    }
}
