import ConnCore
import ConnTestSupport
import Foundation
import Testing

/// `conn request`: any HTTP change through the outbox, against a server that is not conn-server
/// (bad_server.py, which records every request and answers as scripted).
@Suite("conn request: any HTTP change, durable and once")
struct RequestCommandTests {
    let home: TemporaryDirectory

    init() throws { home = try TemporaryDirectory() }

    /// The outbox's items as `outbox list --all --json` gives them.
    func items(env: [String: String] = [:]) async throws -> [[String: Any]] {
        let list = try await home.conn(["outbox", "list", "--all", "--json"], env: env)
        return try list.json()["messages"] as? [[String: Any]] ?? []
    }

    @Test("201: delivered at once, one line on stdout; the answer kept (status, Location, ETag, body); the body byte for byte with its last newline; one Idempotency-Key; a Content-Type chosen; outbox show --json is schema 2")
    func deliveredAndKept() async throws {
        try await BadServer.with([.answer(nil, "/items", status: 201, headers: [["Location", "/items/7"], ["ETag", "\"v1\""]], body: #"{"id":7}"#)]) { server in
            let file = try home.write("item.txt", "name=lamp\n")
            let sent = try await home.conn(["request", server.url.absoluteString + "/items", "--body-file", file])
            #expect(sent.exitCode == 0, "\(sent.standardError)")
            #expect(sent.standardOutput.range(of: #"^[0-9a-f]{8}  sent  POST http://127\.0\.0\.1:\d+/items  → 201\n$"#, options: .regularExpression) != nil,
                    "\(sent.standardOutput)")
            let logged = try server.requests()
            #expect(logged.count == 1)
            #expect(logged.first?.bodyBytes == Data("name=lamp\n".utf8), "the last newline is kept")
            #expect(logged.first?.header("Content-Type") == "application/octet-stream")
            let key = try #require(logged.first?.header("Idempotency-Key"))
            #expect(UUID(uuidString: key) != nil, "\(key)")

            let item = try #require(try await items().first)
            #expect(item["kind"] as? String == "request" && item["state"] as? String == "sent" && item["idempotencyKey"] as? String == key)
            let id = try #require(item["id"] as? String)
            let show = try await home.conn(["outbox", "show", "--json", id])
            let shown = try show.json()
            let answer = try #require(shown["answer"] as? [String: Any])
            #expect(answer["status"] as? Int == 201 && answer["body"] as? String == #"{"id":7}"# && answer["truncated"] as? Bool == false)
            #expect((answer["headers"] as? [String: String])?["Location"] == "/items/7" && (answer["headers"] as? [String: String])?["ETag"] == "\"v1\"")
            let request = try #require(shown["request"] as? [String: Any])
            #expect(request["body"] as? String == "name=lamp\n" && request["method"] as? String == "POST" && request["bodyBytes"] as? Int == 10)
            #expect(shown["schemaVersion"] as? Int == 2)
            let problems = try await JSONSchemaCheck.violations(of: show.standardOutput, schema: "outbox-message")
            #expect(problems.isEmpty, "\(problems)")

            // JSON bodies say so; a PUT with --expect.
            let json = try await home.conn(["request", "-X", "PUT", server.url.absoluteString + "/items", "--body", #"{"a":1}"#, "--expect", "201"])
            #expect(json.exitCode == 0, "\(json.standardError)")
            #expect(try server.requests().last?.header("Content-Type") == "application/json")
            #expect(try server.requests().last?.method == "PUT")
        }
    }

    @Test("503, then 429 with Retry-After, then 201: --wait retries with the same key until delivered; a server that honours the key applied it once; --idempotency-header and --no-idempotency-key")
    func retriedWithOneKey() async throws {
        let answers = [BadServer.Answer(503, body: "busy"), BadServer.Answer(429, headers: [["Retry-After", "1"]], body: "slow down"),
                       BadServer.Answer(201, headers: [["Content-Type", "application/json"]], body: #"{"ok":true}"#)]
        try await BadServer.with([.inTurn("POST", "/orders", answers, idempotent: true), .answer("PATCH", "/other", status: 204, body: "")]) { server in
            let started = ContinuousClock.now
            let sent = try await home.conn(["request", server.url.absoluteString + "/orders", "--body", "{}", "--wait", "20s"])
            #expect(sent.exitCode == 0 && sent.standardOutput.contains("  sent  "), "\(sent.standardOutput) \(sent.standardError)")
            let logged = try server.requests()
            // 503 and 429 were answers given before the key was applied: the third applied it.
            #expect(logged.count == 3 && Set(logged.compactMap { $0.header("Idempotency-Key") }).count == 1, "\(logged.map(\.path))")
            #expect(server.applied().count == 1)
            #expect(started.duration(to: .now) >= .seconds(1), "Retry-After: 1 was honoured")

            let named = try await home.conn(["request", "-X", "PATCH", server.url.absoluteString + "/other", "--idempotency-header", "X-Request-Id"])
            #expect(named.exitCode == 0, "\(named.standardError)")
            #expect(try server.requests().last?.header("X-Request-Id") != nil && server.requests().last?.header("Idempotency-Key") == nil)
            let none = try await home.conn(["request", "-X", "PATCH", server.url.absoluteString + "/other", "--no-idempotency-key"])
            #expect(none.exitCode == 0 && none.standardOutput.contains("(no idempotency key: delivered at least once)"), "\(none.standardOutput)")
            #expect(try server.requests().last?.header("Idempotency-Key") == nil)
        }
    }

    @Test("refused and not proven: 422 and 409 fail with the answer kept (65 with --wait); a redirect on the origin fails naming --expect; a redirect elsewhere and an HTML page are not delivery (retried); --expect 202 refuses a 200")
    func refusedAndUnproven() async throws {
        try await BadServer.with([
            .answer("POST", "/invalid", status: 422, body: #"{"error":"name is required"}"#),
            .answer("POST", "/conflict", status: 409, body: "exists"),
            .redirect("POST", "/moved", status: 303, to: "/elsewhere"),
            .redirect("POST", "/portal", status: 302, to: "http://login.portal.example/"),
            .answer("POST", "/html", status: 200, contentType: "text/html", body: "<html><body>Log in</body></html>"),
            .answer("POST", "/ok", status: 200, body: "{}"),
        ]) { server in
            let base = server.url.absoluteString
            let invalid = try await home.conn(["request", base + "/invalid", "--body", "{}", "--wait", "5s"])
            #expect(invalid.exitCode == 65 && invalid.standardError.contains(#"the server answered 422: {"error":"name is required"}"#), "\(invalid.standardError)")
            #expect(invalid.standardOutput.contains("failed (rejected)  POST \(base)/invalid  → 422"), "\(invalid.standardOutput)")
            let conflict = try await home.conn(["request", base + "/conflict", "--body", "{}"])
            #expect(conflict.exitCode == 65 && conflict.standardOutput.contains("failed (rejected)"), "kept, and failed: \(conflict.standardOutput)")
            let moved = try await home.conn(["request", base + "/moved", "--body", "{}"])
            #expect(moved.standardOutput.contains("failed (rejected)") && moved.standardError.contains("--expect 303"), "\(moved.standardError)")
            for path in ["/portal", "/html"] {
                let portal = try await home.conn(["request", base + path, "--body", "{}"])
                #expect(portal.exitCode == 0 && portal.standardOutput.contains("  sending  "), "\(path): \(portal.standardOutput) \(portal.standardError)")
            }
            let expected = try await home.conn(["request", base + "/ok", "--body", "{}", "--expect", "202", "--wait", "5s"])
            #expect(expected.exitCode == 65, "\(expected.standardOutput) \(expected.standardError)")
            let states = try await items().map { "\($0["state"] as? String ?? "") \(($0["request"] as? [String: Any])?["url"] as? String ?? "")" }
            #expect(states.filter { $0.hasPrefix("failed") }.count == 4 && states.filter { $0.hasPrefix("pending") }.count == 2, "\(states)")
            let problems = try await JSONSchemaCheck.violations(of: try await home.conn(["outbox", "list", "--all", "--json"]).standardOutput, schema: "outbox-list")
            #expect(problems.isEmpty, "\(problems)")
        }
    }

    @Test("credentials: a request's own Authorization refused (401) fails it without pausing the outbox and is never printed; the profile's token goes to the configured server's origin only, and a 401 there pauses the outbox")
    func credentials() async throws {
        try await BadServer.with([.answer("POST", "/private", status: 401, body: "who are you"), .answer("POST", "/open", status: 201, body: "{}")]) { server in
            try await BadServer.with([.answer("POST", "/mine", status: 401, body: "bad token"), .answer("POST", "/fine", status: 201, body: "{}")]) { configured in
                let env = ["CONN_SERVER": configured.url.absoluteString, "CONN_TOKEN": "profile-token-123"]
                let own = try await home.conn(["request", server.url.absoluteString + "/private", "--body", "{}", "-H", "Authorization: Bearer own-secret-456",
                                               "-H", "X-Trace: 1", "--secret-header", "x-trace"], env: env)
                #expect(own.exitCode == 65 && own.standardOutput.contains("failed (rejected)"), "\(own.standardOutput) \(own.standardError)")
                #expect(try server.requests().first?.header("Authorization") == "Bearer own-secret-456")
                let elsewhere = try await home.conn(["request", server.url.absoluteString + "/open", "--body", "{}"], env: env)
                #expect(elsewhere.exitCode == 0 && elsewhere.standardOutput.contains("  sent  "), "not paused: \(elsewhere.standardOutput) \(elsewhere.standardError)")
                #expect(try server.requests().last?.header("Authorization") == nil, "the profile's token never goes to another origin")
                let shown = [try await home.conn(["outbox", "list", "--all"], env: env), try await home.conn(["outbox", "list", "--all", "--json"], env: env),
                             try await home.conn(["outbox", "show", "--json", own.standardOutput.prefix(8).description], env: env),
                             try await home.conn(["outbox", "show", own.standardOutput.prefix(8).description], env: env)]
                for output in shown {
                    #expect(!(output.standardOutput + output.standardError).contains("own-secret-456") && !(output.standardOutput + output.standardError).contains("X-Trace: 1"),
                            "\(output.standardOutput)")
                }
                #expect(shown[2].standardOutput.contains("Authorization: (secret, not shown)"), "\(shown[2].standardOutput)")

                let mine = try await home.conn(["request", configured.url.absoluteString + "/mine", "--body", "{}", "--wait", "5s"], env: env)
                #expect(mine.exitCode == 77 && mine.standardError.contains("the outbox is paused"), "\(mine.standardError)")
                #expect(try configured.requests().first?.header("Authorization") == "Bearer profile-token-123")
                let list = try await home.conn(["outbox", "list"], env: env)
                #expect(list.standardOutput.hasPrefix("paused"), "\(list.standardOutput)")
            }
        }
    }

    @Test("bad input names what is wrong and writes nothing", arguments: [
        (["-X", "GET", "http://127.0.0.1:9/x"], "-X GET reads"),
        (["http://127.0.0.1:9/x"], "no method and no body"),
        (["-X", "TRACE", "http://127.0.0.1:9/x"], "not a method conn request queues"),
        (["ftp://127.0.0.1/x", "--body", "1"], "URL 'ftp://127.0.0.1/x'"),
        (["http://ann:pw@127.0.0.1:9/x", "--body", "1"], "contains a user name or password"),
        (["http://127.0.0.1:9/x", "--body", "1", "-H", "NoColon"], "is not 'Name: value'"),
        (["http://127.0.0.1:9/x", "--body", "1", "-H", "Host: evil"], "conn writes this header itself"),
        (["http://127.0.0.1:9/x", "--body", "1", "-H", "Idempotency-Key: mine"], "--no-idempotency-key"),
        (["http://127.0.0.1:9/x", "--body", "1", "-H", "X-A: b\u{01}\nX-B: c"], "line break"),
        (["http://127.0.0.1:9/x", "--body", "1", "--expect", "99"], "--expect '99'"),
        (["http://127.0.0.1:9/x", "--body", "1", "--body-file", "/dev/null"], "--body and --body-file"),
        (["http://127.0.0.1:9/x", "--body-file", "/nonexistent/file"], "does not exist"),
    ])
    func badInput(arguments: [String], says: String) async throws {
        let outcome = try await home.conn(["request"] + arguments)
        #expect([64, 66].contains(outcome.exitCode) && outcome.standardError.contains(says), "\(outcome.exitCode) \(outcome.standardError)")
        #expect(outcome.standardError.contains("ann:pw") == false)
        #expect(try await items().isEmpty)
    }

    @Test("a body over 10 MiB from standard input is refused (65), nothing written")
    func bodyTooLarge() async throws {
        let outcome = try await home.conn(["request", "http://127.0.0.1:9/x", "--body-file", "-"], input: String(repeating: "x", count: (10 << 20) + 1))
        #expect(outcome.exitCode == 65 && outcome.standardError.contains("larger than the limit of 10485760 bytes"), "\(outcome.standardError)")
        #expect(try await items().isEmpty)
    }

    @Test("queued while its server is down: outbox flush delivers it with no server configured, with the key of the first attempt; retarget refuses a request; the agent delivers one it is handed")
    func queuedThenDelivered() async throws {
        let port = try HTTPPorts.reserved()
        let queued = try await home.conn(["request", "http://127.0.0.1:\(port.port)/later", "--body", "{}"])
        #expect(queued.exitCode == 0 && queued.standardOutput.contains("  sending  ") && queued.standardError.contains("queued, not delivered yet"), "\(queued.standardError)")
        let id = String(queued.standardOutput.prefix(8))
        let retarget = try await home.conn(["outbox", "retarget", id, "--server", "http://127.0.0.1:1"])
        #expect(retarget.exitCode == 64 && retarget.standardError.contains("bound to its URL's origin"), "\(retarget.standardError)")
        let key = try #require(try await items().first?["idempotencyKey"] as? String)
        port.release()
        try await BadServer.with([.answer("POST", "/later", status: 201, body: "{}")], port: port.port) { server in
            let flush = try await home.conn(["outbox", "flush"])
            #expect(flush.exitCode == 0, "\(flush.standardOutput) \(flush.standardError)")
            #expect(try server.requests().map { $0.header("Idempotency-Key") } == [key])
            #expect(try await items().first?["state"] as? String == "sent")
        }
    }
}

extension RequestCommandTests {
    @Test("the agent delivers a request queued while its server was down, once that server listens, with the first attempt's key")
    func agentDelivers() async throws {
        let port = try HTTPPorts.reserved()
        let queued = try await home.conn(["request", "-X", "DELETE", "http://127.0.0.1:\(port.port)/items/9"])
        #expect(queued.exitCode == 0 && queued.standardOutput.contains("  sending  "), "\(queued.standardError)")
        let key = try #require(try await items().first?["idempotencyKey"] as? String)
        try await ServerProcess.with { configured in
            let agent = try JSONLinesProcess(ConnProcess.connPath, ["agent", "--json", "--no-internet", "--interval", "1s"],
                                             environment: home.environment.merging(["CONN_SERVER": configured.absoluteString]) { $1 })
            _ = try #require(try await agent.await { $0["type"] as? String == "baseline" }, "\(agent.errorOutput)")
            port.release()
            try await BadServer.with([.answer("DELETE", "/items/9", status: 204, body: "")], port: port.port) { server in
                let delivered = try await poll(for: 30, every: .milliseconds(100)) { () -> Bool? in
                    try await items().first?["state"] as? String == "sent" ? true : nil
                }
                #expect(delivered == true, "\(agent.standardOutput) \(agent.errorOutput)")
                #expect(try server.requests().map { $0.header("Idempotency-Key") } == [key])
            }
            #expect(await agent.stop() == 0)
        }
    }
}
