import ConnTestSupport
import Foundation
import Testing

/// `outbox resend --failed` and `outbox delete --failed`: every failed message, and only those.
@Suite("outbox resend and delete --failed")
struct OutboxFailedSelectionTests {
    let home: TemporaryDirectory

    init() throws { home = try TemporaryDirectory() }

    /// Subject → state, from `outbox list --json --all`.
    func states() async throws -> [String: String] {
        let listed = try await home.conn(["outbox", "list", "--json", "--all"])
        #expect(listed.exitCode == 0, "\(listed.standardError)")
        let messages = try #require(try listed.json()["messages"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: messages.map { ($0["subject"] as? String ?? "?", $0["state"] as? String ?? "?") })
    }

    /// One message the server refused (a wrong token: failed, kept for a resend), one queued
    /// behind it while the outbox is paused for that server, one queued for a server that is down.
    func queueFailedAndWaiting(server: BackgroundServer) async throws {
        let refused = try await home.conn(["send", "--to", "ada@example.com", "--subject", "refused one", "--text", "t"], server: server.url,
                                          env: ["CONN_TOKEN": "wrong-token"])
        #expect(refused.exitCode == 77, "\(refused.standardError)")
        // The outbox is paused for that server now: the next one is queued, not tried, and said so.
        let paused = try await home.conn(["send", "--to", "ada@example.com", "--subject", "refused two", "--text", "t"], server: server.url,
                                         env: ["CONN_TOKEN": "wrong-token"])
        #expect(paused.exitCode == 0 && paused.standardError.contains("the outbox is paused"), "\(paused.standardError)")
        let down = URL(string: "http://127.0.0.1:\(try HTTPPorts.closed())")!
        #expect(try await home.conn(["send", "--to", "ada@example.com", "--subject", "waiting", "--text", "t"], server: down).exitCode == 0)
        #expect(try await states() == ["refused one": "failed", "refused two": "pending", "waiting": "pending"])
    }

    @Test("resend --failed, the token mended, delivers the failed message and only it; a flush then the one held by the pause; the waiting one stays for its own server")
    func resendFailed() async throws {
        let server = try await BackgroundServer.start(["--token", "right-token"])
        try await queueFailedAndWaiting(server: server)
        let mended = ["CONN_TOKEN": "right-token"]
        let resent = try await home.conn(["outbox", "resend", "--failed", "--json"], server: server.url, env: mended)
        #expect(resent.exitCode == 0, "\(resent.standardOutput) \(resent.standardError)")
        #expect(try await server.inbox(token: "right-token").compactMap { $0["subject"] as? String } == ["refused one"])
        #expect(try await states() == ["refused one": "sent", "refused two": "pending", "waiting": "pending"])
        // Nothing failed any more: nothing to do, not an error, nothing sent.
        let again = try await home.conn(["outbox", "resend", "--failed"], server: server.url, env: mended)
        #expect(again.exitCode == 0, "\(again.standardError)")
        #expect(try await server.inbox(token: "right-token").count == 1)
        // The credentials changed: the pause is over for a flush.
        let flushed = try await home.conn(["outbox", "flush"], server: server.url, env: mended)
        #expect(try await server.inbox(token: "right-token").count == 2, "\(flushed.standardOutput) \(flushed.standardError)")
        #expect(try await states()["refused two"] == "sent")
        await server.stop()
    }

    @Test("delete --failed --yes deletes every failed message and nothing else; ids and --failed together are 64")
    func deleteFailed() async throws {
        let server = try await BackgroundServer.start(["--token", "right-token"])
        try await queueFailedAndWaiting(server: server)
        await server.stop()
        let deleted = try await home.conn(["outbox", "delete", "--failed", "--yes"])
        #expect(deleted.exitCode == 0, "\(deleted.standardError)")
        #expect(try await states() == ["refused two": "pending", "waiting": "pending"])
        let both = try await home.conn(["outbox", "delete", "--failed", "--yes", "abcd"])
        #expect(both.exitCode == 64 && both.standardError.contains("give ids or --failed, not both"), "\(both.standardError)")
        #expect(try await states() == ["refused two": "pending", "waiting": "pending"])
    }
    @Test("resend and delete --failed with none failed say so, with what the outbox holds — not 'the outbox is empty'; JSON lists none")
    func noneFailed() async throws {
        try await ServerProcess.with { url in
            let sent = try await home.conn(["send", "--to", "ada@example.com", "--subject", "sent", "--text", "t"], server: url)
            #expect(sent.exitCode == 0)
        }
        let down = URL(string: "http://127.0.0.1:\(try HTTPPorts.closed())")!
        #expect(try await home.conn(["send", "--to", "ada@example.com", "--subject", "waiting", "--text", "t"], server: down).exitCode == 0)
        let resent = try await home.conn(["outbox", "resend", "--failed"], server: down)
        #expect(resent.exitCode == 0 && resent.standardOutput == "no failed message to resend (1 waiting, 1 sent and kept)\n", "\(resent.standardOutput)")
        let deleted = try await home.conn(["outbox", "delete", "--failed", "--yes"], server: down)
        #expect(deleted.exitCode == 0 && deleted.standardOutput == "no failed message to delete (1 waiting, 1 sent and kept)\n", "\(deleted.standardOutput)")
        let json = try await home.conn(["outbox", "resend", "--failed", "--json"], server: down)
        #expect((try json.json()["messages"] as? [Any])?.isEmpty == true, "\(json.standardOutput)")
        let problems = try await JSONSchemaCheck.violations(of: json.standardOutput, schema: "outbox-list")
        #expect(problems.isEmpty, "\(problems)")
    }
}
