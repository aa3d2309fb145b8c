import ConnTestSupport
import ConnCore
import Foundation
import GRDB
import Testing

/// `conn send` and `conn outbox` as a user runs them: the real binary, the real conn-server, the
/// real SQLite outbox.
@Suite("conn send and conn outbox end to end")
struct SendAndOutboxTests {
    let home: TemporaryDirectory

    init() throws { home = try TemporaryDirectory() }


    func outbox() async throws -> [[String: Any]] {
        let listed = try await home.conn(["outbox", "list", "--json", "--all"])
        #expect(listed.exitCode == 0, "\(listed.standardError)")
        return try #require(try listed.json()["messages"] as? [[String: Any]])
    }

    var databasePath: String { home.path + "/data/conn/conn.sqlite" }

    static func send(_ subject: String, extra: [String] = []) -> [String] {
        ["send", "--to", "ada@example.com", "--subject", subject, "--text", "text of \(subject)", "--json"] + extra
    }

    @Test("sent at once when the server is up: id, state and server uid; the server has it once")
    func sendsAtOnce() async throws {
        let server = try await BackgroundServer.start()
        let outcome = try await home.conn(Self.send("hello"), server: server.url)
        #expect(outcome.exitCode == 0, "\(outcome.standardError)")
        let report = try outcome.json()
        #expect(report["state"] as? String == "sent")
        #expect(report["serverUid"] as? String == "m1")
        let id = try #require(report["id"] as? String)
        #expect(UUID(uuidString: id) != nil && report["idempotencyKey"] as? String == id)
        let inbox = try await server.inbox()
        #expect(inbox.count == 1 && inbox[0]["subject"] as? String == "hello")
    }

    @Test("sent messages leave the default list (counted on stderr, --all shows them) and are pruned after outboxKeepSent")
    func sentMessagesAreKeptThenPruned() async throws {
        let server = try await BackgroundServer.start()
        let sent = try await home.conn(Self.send("kept a while"), server: server.url)
        #expect(try sent.json()["state"] as? String == "sent", "\(sent.standardOutput)")
        let plain = try await home.conn(["outbox", "list"], server: server.url)
        #expect(!plain.standardOutput.contains("kept a while") && plain.standardError.contains("1 sent message not shown — `--all`"),
                "\(plain.standardOutput) \(plain.standardError)")
        let json = try await home.conn(["outbox", "list", "--json"], server: server.url)
        #expect(try json.json()["sentNotShown"] as? Int == 1 && (try json.json()["messages"] as? [Any])?.isEmpty == true)
        let all = try await home.conn(["outbox", "list", "--all"], server: server.url)
        #expect(all.standardOutput.contains("kept a while"))
        // Kept for a second only: gone at the next look, with its attempts.
        try await Task.sleep(for: .milliseconds(1500))
        let pruned = try await home.conn(["outbox", "list", "--all", "--json"], server: server.url, env: ["CONN_OUTBOX_KEEP_SENT": "1s"])
        #expect((try pruned.json()["messages"] as? [Any])?.isEmpty == true, "\(pruned.standardOutput)")
        let kept = try await home.conn(["config", "get", "outboxKeepSent"])
        #expect(kept.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "7d", "\(kept.standardOutput)")
        await server.stop()
    }

    @Test("server down: queued (exit 0, says so), then delivered by flush once the server is up")
    func queuedWhileDown() async throws {
        let portReservation = try HTTPPorts.reserved()
        let port = portReservation.port
        let down = URL(string: "http://127.0.0.1:\(port)")!
        let queued = try await home.conn(Self.send("later"), server: down)
        #expect(queued.exitCode == 0, "\(queued.standardError)")
        #expect(try queued.json()["state"] as? String == "pending")
        #expect(queued.standardError.contains("queued, not sent yet") && queued.standardError.contains("refused"))
        let text = try await home.conn(["outbox", "list"])
        #expect(text.standardOutput.contains("sending") && text.standardOutput.contains("later"))

        let flushDown = try await home.conn(["outbox", "flush", "--json"], server: down)
        #expect(flushDown.exitCode == 75)
        #expect(try flushDown.json()["waiting"] as? Int == 1)

        portReservation.release()
        let server = try await BackgroundServer.start(["--port", String(port)])
        let flushed = try await home.conn(["outbox", "flush", "--json"], server: server.url)
        #expect(flushed.exitCode == 0, "\(flushed.standardError)")
        let report = try flushed.json()
        #expect(report["sent"] as? Int == 1 && report["waiting"] as? Int == 0)
        #expect(try await outbox().map { $0["state"] as? String } == ["sent"])
        #expect(try await server.inbox().count == 1)
        let again = try await home.conn(["outbox", "flush"], server: server.url)
        #expect(again.exitCode == 0 && again.standardOutput == "nothing to deliver\n")
    }

    @Test("flush --wait retries a message within the wait even when earlier failures earned it minutes of backoff")
    func waitCapsEarnedBackoff() async throws {
        let portReservation = try HTTPPorts.reserved()
        let port = portReservation.port
        let down = URL(string: "http://127.0.0.1:\(port)")!
        let queued = try await home.conn(Self.send("often failed"), server: down)
        #expect(queued.exitCode == 0, "\(queued.standardError)")
        // Nine failed attempts before: the next backoff could be anything up to 256 s.
        let database = try DatabaseQueue(path: databasePath)
        try await database.write { db in try db.execute(sql: "UPDATE outboxMessage SET attempts = 9") }
        let environment = home.environment.merging(["CONN_SERVER": down.absoluteString]) { $1 }
        async let flushed = ConnProcess.run(ConnProcess.connPath, ["outbox", "flush", "--wait", "8s", "--json"], environment: environment)
        // The server comes once the flush has failed its first attempt (its tenth): it is then
        // waiting, and must still deliver when the server answers.
        let failedOnce = try await poll(for: 8, every: .milliseconds(20)) {
            try await database.read { db in try Int.fetchOne(db, sql: "SELECT attempts FROM outboxMessage") ?? 0 } >= 10 ? true : nil
        }
        #expect(failedOnce == true, "the flush never tried")
        portReservation.release()
        let server = try await BackgroundServer.start(["--port", String(port)])
        let outcome = try await flushed
        #expect(outcome.exitCode == 0, "\(outcome.standardError)")
        #expect(try await server.inbox().count == 1)
        await server.stop()
    }

    @Test("responses dropped: retried with the same key; the server stores the message once")
    func droppedResponsesStoreOnce() async throws {
        let data = home.path + "/server.sqlite"
        let lossy = try await BackgroundServer.start(["--data", data, "--drop-response-rate", "1"])
        let first = try await home.conn(Self.send("once"), server: lossy.url, env: ["CONN_TIMEOUT": "2s"])
        #expect(first.exitCode == 0)
        #expect(try first.json()["state"] as? String == "pending")
        let retried = try await home.conn(["outbox", "flush"], server: lossy.url, env: ["CONN_TIMEOUT": "2s"])
        #expect(retried.exitCode == 75)
        await lossy.stop()
        // The same store, answers no longer dropped: the third attempt is answered with a replay.
        let server = try await BackgroundServer.start(["--data", data, "--port", String(lossy.port)])
        let flushed = try await home.conn(["outbox", "flush"], server: server.url)
        #expect(flushed.exitCode == 0, "\(flushed.standardError)")
        let inbox = try await server.inbox()
        #expect(inbox.filter { $0["subject"] as? String == "once" }.count == 1)
        let message = try #require(try await outbox().first)
        #expect(message["attempts"] as? Int == 3)
        let shown = try await home.conn(["outbox", "show", String((message["id"] as! String).prefix(6)), "--json"])
        let log = try #require(try shown.json()["attemptLog"] as? [[String: Any]])
        #expect(log.map { $0["outcome"] as? String } == ["retry", "retry", "sent"])
        #expect((log.last?["detail"] as? String)?.contains("replayed") == true)
        // In text, moments are local time with the zone (TZ), or UTC with --utc; JSON stays ISO UTC.
        let id = String((message["id"] as! String).prefix(6))
        let local = try await home.conn(["outbox", "show", id], env: ["TZ": "Europe/Paris"])
        #expect(local.standardOutput.contains(/queued \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+0[12]00/), "\(local.standardOutput)")
        #expect(local.standardOutput.contains(/#3 \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+0[12]00 sent/), "\(local.standardOutput)")
        let utc = try await home.conn(["outbox", "show", id, "--utc"], env: ["TZ": "Europe/Paris"])
        #expect(utc.standardOutput.contains(/queued \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/), "\(utc.standardOutput)")
        #expect((try shown.json()["createdAt"] as? String)?.hasSuffix("Z") == true)
    }

    @Test("--wait rides out injected 5xx with Retry-After and ends sent; every message stored once")
    func waitThroughFailures() async throws {
        // 40 % failures and 60 s: with backoff doubling from 1 s, not getting through needs
        // eight failures in a row (0.07 % a message); at 60 % and 30 s it was a few percent.
        let server = try await BackgroundServer.start(["--fail-rate", "0.4"])
        for index in 0..<3 {
            let outcome = try await home.conn(Self.send("flaky \(index)", extra: ["--wait", "60s"]), server: server.url)
            #expect(outcome.exitCode == 0, "\(outcome.standardError)")
            #expect(try outcome.json()["state"] as? String == "sent")
        }
        let subjects = try await server.inbox().compactMap { $0["subject"] as? String }
        #expect(subjects.sorted() == (0..<3).map { "flaky \($0)" })
        // Retry-After (1 s on this server) was honoured: no retry came sooner after a 503.
        let database = try DatabaseQueue(path: databasePath)
        let gaps = try await database.read { db in
            try Double.fetchAll(db, sql: """
                SELECT b.startedAt - a.finishedAt FROM outboxAttempt a JOIN outboxAttempt b
                ON b.messageId = a.messageId AND b.number = a.number + 1 WHERE a.httpStatus = 503
                """)
        }
        #expect(gaps.allSatisfy { $0 >= 0.99 }, "\(gaps)")
    }

    @Test("413 and 422 are rejected (65), the message kept with Resend and Delete; resend keeps the id")
    func rejected() async throws {
        let data = home.path + "/server.sqlite"
        let strict = try await BackgroundServer.start(["--data", data, "--max-body-bytes", "200"])
        let big = try await home.conn(["send", "--to", "ada@example.com", "--subject", "big", "--text", String(repeating: "x", count: 500), "--json"], server: strict.url)
        #expect(big.exitCode == 65)
        #expect(big.standardError.contains("rejected") && big.standardError.contains("413"))
        let report = try big.json()
        #expect(report["state"] as? String == "failed" && report["failureReason"] as? String == "rejected")
        #expect(report["actions"] as? [String] == ["resend", "delete"])
        let id = try #require(report["id"] as? String)
        // In text, said once: the summary line on stdout (short id, state), the error and what to do on stderr.
        let bigText = try await home.conn(["send", "--to", "ada@example.com", "--subject", "big", "--text", String(repeating: "y", count: 500)], server: strict.url)
        #expect(bigText.exitCode == 65)
        #expect(bigText.standardOutput.range(of: "^[0-9a-f]{8}  failed \\(rejected\\)  to ada@example.com  big\n$", options: .regularExpression) != nil,
                "\(bigText.standardOutput)")
        let bigErrors = bigText.standardError.split(separator: "\n")
        #expect(bigErrors.count == 2 && bigErrors[0].hasPrefix("conn: error: the server rejected message") && bigErrors[1].contains("conn outbox delete"),
                "\(bigText.standardError)")
        let bigTextID = String(bigText.standardOutput.prefix(8))
        #expect(try await home.conn(["outbox", "delete", "--yes", bigTextID]).exitCode == 0)
        await strict.stop()

        let roomy = try await BackgroundServer.start(["--data", data, "--port", String(strict.port)])
        let resent = try await home.conn(["outbox", "resend", String(id.prefix(8)), "--json"], server: roomy.url)
        #expect(resent.exitCode == 0, "\(resent.standardError)")
        let messages = try #require(try resent.json()["messages"] as? [[String: Any]])
        #expect(messages.first?["id"] as? String == id && messages.first?["state"] as? String == "sent")

        // The local copy changed after the server stored it: the same key with another body is 422.
        let sentOnce = try await home.conn(Self.send("edited"), server: roomy.url)
        let editedID = try #require(try sentOnce.json()["id"] as? String)
        let database = try DatabaseQueue(path: databasePath)
        try await database.write { db in
            try db.execute(sql: "UPDATE outboxMessage SET text = 'changed', state = 'pending' WHERE id = ?", arguments: [editedID])
        }
        let clash = try await home.conn(["outbox", "flush", "--json"], server: roomy.url)
        #expect(clash.exitCode == 65)
        let failed = try await home.conn(["outbox", "list", "--state", "failed", "--json"])
        let failedMessages = try #require(try failed.json()["messages"] as? [[String: Any]])
        #expect(failedMessages.map { $0["lastErrorCode"] as? String } == ["idempotencyKeyReused"])
    }

    @Test("401: failed(auth), exit 77, the queue pauses; the right token lifts the pause and delivers")
    func authPause() async throws {
        let server = try await BackgroundServer.start(["--token", "right"])
        let refused = try await home.conn(Self.send("first"), server: server.url, env: ["CONN_TOKEN": "wrong"])
        #expect(refused.exitCode == 77)
        #expect(try refused.json()["failureReason"] as? String == "auth")
        let refusedText = try await home.conn(["send", "--to", "ada@example.com", "--subject", "s", "--text", "t"], server: server.url, env: ["CONN_TOKEN": "wrong"])
        #expect(refusedText.exitCode == 0 && refusedText.standardOutput.range(of: "^[0-9a-f]{8}  sending  to ada@example.com  s\n$", options: .regularExpression) != nil,
                "paused: queued, its summary line: \(refusedText.standardOutput)")
        #expect(refusedText.standardError.split(separator: "\n").count == 2 && refusedText.standardError.contains("paused"), "\(refusedText.standardError)")
        let second = try await home.conn(Self.send("second"), server: server.url, env: ["CONN_TOKEN": "wrong"])
        #expect(second.exitCode == 0)
        #expect(second.standardError.contains("paused"))
        #expect(try second.json()["state"] as? String == "pending")
        let paused = try await home.conn(["outbox", "flush"], server: server.url, env: ["CONN_TOKEN": "wrong"])
        #expect(paused.exitCode == 77)
        #expect(try await server.inbox(token: "right").isEmpty)

        let fixed = try await home.conn(["outbox", "flush", "--json"], server: server.url, env: ["CONN_TOKEN": "right"])
        #expect(fixed.exitCode == 0, "\(fixed.standardError)")
        #expect(try fixed.json()["sent"] as? Int == 3)
        #expect(try await server.inbox(token: "right").count == 3)
    }

    @Test("not delivered within outboxExpiry: failed(expired) with the last error")
    func expiry() async throws {
        let down = URL(string: "http://127.0.0.1:\(try HTTPPorts.closed())")!
        let env = ["CONN_OUTBOX_EXPIRY": "1s"]
        #expect(try await home.conn(Self.send("stale"), server: down, env: env).exitCode == 0)
        try await Task.sleep(for: .milliseconds(1_200))
        let flushed = try await home.conn(["outbox", "flush", "--json"], server: down, env: env)
        #expect(flushed.exitCode == 0)
        #expect(try flushed.json()["expired"] as? Int == 1)
        let message = try #require(try await outbox().first)
        #expect(message["failureReason"] as? String == "expired")
        #expect((message["lastError"] as? String)?.hasPrefix("not delivered within 1s; last error: ") == true)
    }

    @Test("bad input is refused before anything is written", arguments: [
        (["--to", "ada@", "--subject", "s", "--text", "t"], 64, "'ada@' is not a valid e-mail address"),
        (["--to", "ada@example.com, bob", "--subject", "s", "--text", "t"], 64, "'bob' is not a valid e-mail address"),
        (["--to", "ada@example.com", "--subject", "  ", "--text", "t"], 64, "--subject is empty"),
        (["--to", "ada@example.com", "--subject", "s", "--file", "/nonexistent/body.txt"], 66, "--file /nonexistent/body.txt does not exist"),
        (["--to", "ada@example.com", "--subject", "s", "--text", "t", "--file", "x"], 64, "not both"),
        (["--to", "ada@example.com", "--subject", "s", "--text", "t", "--wait", "soon"], 64, "--wait 'soon' is not a positive duration"),
        (["--to", "ada@example.com", "--subject", "two\nlines", "--text", "t"], 64, "--subject must be one line"),
        (["--to", "ada@example.com", "--subject", "s", "--text", "t", "--reply-to", ""], 64, "--reply-to '' is not a message uid"),
        (["--to", "ada@example.com", "--subject", "s", "--text", "t", "--reply-to", "a b"], 64, "--reply-to 'a b' is not a message uid"),
        (["--to", "ada@example.com", "--subject", "s", "--text", "t", "--reply-to", String(repeating: "u", count: 257)], 64,
         "--reply-to is 257 bytes long: a message uid is at most 256"),
    ])
    func badInput(arguments: [String], code: Int32, message: String) async throws {
        let outcome = try await home.conn(["send"] + arguments, server: URL(string: "http://127.0.0.1:9")!)
        #expect(outcome.exitCode == code, "\(outcome.standardError)")
        #expect(outcome.standardError.contains(message), "\(outcome.standardError)")
        #expect(try await outbox().isEmpty)
    }

    @Test("text that is not UTF-8, from a file or stdin, is 65 naming where it came from; nothing is queued")
    func notUTF8() async throws {
        let bytes = Data([0x62, 0x61, 0x64, 0x20, 0xFF, 0xFE, 0x20, 0x62])  // "bad \xFF\xFE b"
        let file = home.path + "/latin.txt"
        try bytes.write(to: URL(fileURLWithPath: file))
        let down = URL(string: "http://127.0.0.1:\(try HTTPPorts.closed())")!
        let fromFile = try await home.conn(["send", "--to", "ada@example.com", "--subject", "s", "--file", file], server: down)
        #expect(fromFile.exitCode == 65 && fromFile.standardError.contains("the text from --file \(file) is not UTF-8"), "\(fromFile.standardError)")
        let (program, arguments) = ("/bin/sh", ["-c", "printf 'bad \\377\\376 b' | \"$0\" send --to ada@example.com --subject s", ConnProcess.connPath])
        let fromStdin = try await ConnProcess.run(program, arguments, environment: home.environment.merging(["CONN_SERVER": down.absoluteString]) { $1 })
        #expect(fromStdin.exitCode == 65 && fromStdin.standardError.contains("not UTF-8"), "\(fromStdin.standardError)")
        #expect(try await outbox().isEmpty)
    }

    @Test("text from a file or stdin; an unreadable file is refused")
    func textSources() async throws {
        let server = try await BackgroundServer.start()
        let file = try home.write("body.txt", "from a file\nsecond line\n")
        #expect(try await home.conn(["send", "--to", "ada@example.com", "--subject", "file", "--file", file], server: server.url).exitCode == 0)
        #expect(try await home.conn(["send", "--to", "ada@example.com", "--subject", "stdin"], server: server.url, input: "from stdin").exitCode == 0)
        // Root reads any file: as root, this check runs conn as nobody (setpriv), in a home of its own.
        let refusing = try TemporaryDirectory()
        let locked = try refusing.write("locked.txt", "secret", mode: 0o000)
        let arguments = ["send", "--to", "ada@example.com", "--subject", "x", "--file", locked]
        let refused: ProcessOutcome
        if getuid() == 0 {
            let setpriv = try #require(TestTools.setpriv, "setpriv (util-linux) runs conn as another user here")
            _ = try await ConnProcess.run("/bin/chown", ["-R", "nobody", refusing.path], environment: [:])
            _ = try await ConnProcess.run("/bin/chown", ["root", locked], environment: [:])
            refused = try await ConnProcess.run(setpriv, ["--reuid=nobody", "--regid=nogroup", "--clear-groups", ConnProcess.connPath] + arguments,
                                                environment: refusing.environment.merging(["CONN_SERVER": server.url.absoluteString]) { $1 })
        } else {
            refused = try await refusing.conn(arguments, server: server.url)
        }
        #expect(refused.exitCode == 66 && refused.standardError.contains(locked), "\(refused.exitCode) \(refused.standardError)")
        let texts = Dictionary(uniqueKeysWithValues: try await server.inbox().map { ($0["subject"] as! String, $0["text"] as! String) })
        #expect(texts == ["file": "from a file\nsecond line\n", "stdin": "from stdin"])
    }

    @Test("endless or oversized input is refused after reading just past the 10 MiB limit: `yes |` and /dev/zero end with 65, nothing queued")
    func inputIsCapped() async throws {
        let down = "http://127.0.0.1:\(try HTTPPorts.closed())"
        let environment = home.environment.merging(["CONN_SERVER": down]) { $1 }
        // Without the cap, `yes |` never ends (conn reads until memory runs out); timeout makes that a failure, not a hang.
        let piped = try await ConnProcess.run(
            "/bin/bash", ["-c", "yes | timeout 60 \"$0\" send --to ada@example.com --subject endless; echo \"exit=$?\"", ConnProcess.connPath],
            environment: environment)
        #expect(piped.standardOutput.contains("exit=65"), "\(piped.standardOutput) \(piped.standardError)")
        #expect(piped.standardError.contains("larger than the limit"), "\(piped.standardError)")
        let zero = try await home.conn(["send", "--to", "ada@example.com", "--subject", "zero", "--file", "/dev/zero"])
        #expect(zero.exitCode == 65, "\(zero.standardError)")
        if FileManager.default.fileExists(atPath: databasePath) {
            let queued = try await outbox()
            #expect(queued.isEmpty)
        }
    }

    @Test("delete: refused without --yes and no terminal; refused while a live deliverer holds it; then done")
    func delete() async throws {
        let down = URL(string: "http://127.0.0.1:\(try HTTPPorts.closed())")!
        let queued = try await home.conn(Self.send("doomed"), server: down)
        let id = try #require(try queued.json()["id"] as? String)
        let unconfirmed = try await home.conn(["outbox", "delete", String(id.prefix(8))])
        #expect(unconfirmed.exitCode == 64 && unconfirmed.standardError.contains("--yes"))
        let deleted = try await home.conn(["outbox", "delete", String(id.prefix(8)), "--yes", "--json"])
        #expect(deleted.exitCode == 0)
        #expect(try deleted.json()["deleted"] as? [String] == [id])
        #expect(try await outbox().isEmpty)
        let unknown = try await home.conn(["outbox", "delete", "abcdef", "--yes"])
        #expect(unknown.exitCode == 69 && unknown.standardError.contains("no outbox message with id 'abcdef'"))
    }

    @Test("a frozen server holds a send mid-request: delete and resend refuse; after kill -9 of the sender the next flush delivers exactly once")
    func crashAfterCommit() async throws {
        let server = try await BackgroundServer.start()
        server.signal(SIGSTOP)
        // The sender must still be waiting when it is killed: under the whole suite on CI's two
        // cores the steps below took over 60 s once, and its own deadline ended the request first.
        let sender = try SpawnedProcess(ConnProcess.connPath, Self.send("in flight"),
                                        environment: home.environment.merging(["CONN_SERVER": server.url.absoluteString, "CONN_TIMEOUT": "10m"]) { $1 })
        // Wait until the message is committed and leased to the sender.
        var id: String?
        for _ in 0..<100 where id == nil {
            try await Task.sleep(for: .milliseconds(100))
            id = try? await outbox().first { $0["state"] as? String == "sending" }?["id"] as? String
        }
        let leased = try #require(id)
        let refused = try await home.conn(["outbox", "delete", leased, "--yes"])
        #expect(refused.exitCode == 75 && refused.standardError.contains("being sent"))
        let notResent = try await home.conn(["outbox", "resend", leased])
        #expect(notResent.exitCode == 75 && notResent.standardError.contains("being sent right now"))
        sender.signal(SIGKILL)
        await sender.exited()
        // The request may already sit in the server's socket: let the server handle it, then flush.
        server.signal(SIGCONT)
        let flushed = try await home.conn(["outbox", "flush", "--json"], server: server.url)
        #expect(flushed.exitCode == 0, "\(flushed.standardError)")
        #expect(try await server.inbox().filter { $0["subject"] as? String == "in flight" }.count == 1)
        let shown = try await home.conn(["outbox", "show", leased])
        #expect(shown.standardOutput.contains("interrupted (its deliverer stopped)"))
    }

    @Test("a reply waiting in the outbox shows in its inbox thread with its state, and leaves once sent")
    func repliesInThreads() async throws {
        let seed = try home.write("seed.json", """
            {"inbox": [{"uid": "1", "from": "matt@gmail.com", "to": "jhon@gmail.com", "subject": "subject 1",
                        "text": "first", "responseToUid": "", "dateTime": "Today"}]}
            """)
        let server = try await BackgroundServer.start(["--seed", seed])
        #expect(try await home.conn(["inbox", "fetch"], server: server.url).exitCode == 0)
        let down = URL(string: "http://127.0.0.1:\(try HTTPPorts.closed())")!
        let reply = try await home.conn(Self.send("Re: subject 1", extra: ["--reply-to", "1"]), server: down)
        let id = try #require(try reply.json()["id"] as? String)
        let thread = try await home.conn(["inbox", "thread", "1"])
        #expect(thread.standardOutput.contains("in your outbox"))
        // No UTF-8 locale in the test's environment: the arrow is ASCII.
        #expect(thread.standardOutput.contains("sending  reply to uid 1 -> ada@example.com  Re: subject 1  id \(id.prefix(8))"), "\(thread.standardOutput)")
        let threadJSON = try (try await home.conn(["inbox", "thread", "1", "--json"])).json()
        let waiting = try #require(threadJSON["outbox"] as? [[String: Any]])
        #expect(waiting.map { $0["id"] as? String } == [id] && waiting.first?["state"] as? String == "pending")

        // It was queued for the server that was down: moved to this one on purpose, then sent.
        #expect(try await home.conn(["outbox", "retarget", id], server: server.url).exitCode == 0)
        #expect(try await home.conn(["outbox", "flush"], server: server.url).exitCode == 0)
        #expect(try await home.conn(["inbox", "fetch"], server: server.url).exitCode == 0)
        let after = try (try await home.conn(["inbox", "thread", "1", "--json"])).json()
        #expect((after["outbox"] as? [Any])?.isEmpty == true)
        let messages = try #require(after["messages"] as? [[String: Any]])
        #expect(messages.map { $0["subject"] as? String } == ["subject 1", "Re: subject 1"])
        #expect(messages.last?["parentUid"] as? String == "1")
    }
}
