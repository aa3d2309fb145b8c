import ConnTestSupport
import Foundation
import Testing

/// A message belongs to the server it was queued for. Two real conn-servers: A (down when the
/// message is queued) and B (configured afterwards). Flush, the agent and the REPL against B
/// leave A's message alone; A gets it once it is back; `outbox retarget` moves one on purpose.
@Suite("the outbox: each message for its own server")
struct ServerBindingTests {
    let home: TemporaryDirectory

    init() throws { home = try TemporaryDirectory() }

    func subjects(_ server: BackgroundServer) async throws -> [String] {
        try await server.inbox().compactMap { $0["subject"] as? String }.filter { $0.hasPrefix("for ") }
    }

    @Test("queued for A (down): flush, the agent and the REPL against B do not send it; listed as waiting for A; A gets it once, when back")
    func notDeliveredElsewhere() async throws {
        let reservation = try HTTPPorts.reserved()
        let serverA = URL(string: "http://127.0.0.1:\(reservation.port)")!
        let queued = try await home.conn(["send", "--to", "ann@conn.example", "--subject", "for A", "--text", "staging only"], server: serverA)
        #expect(queued.exitCode == 0 && queued.standardError.contains("queued"), "\(queued.standardError)")

        let b = try await BackgroundServer.start()
        let flushed = try await home.conn(["outbox", "flush", "--json"], server: b.url)
        #expect(flushed.exitCode == 0, "\(flushed.standardError)")
        let report = try flushed.json()
        #expect(report["attempted"] as? Int == 0 && report["waiting"] as? Int == 0, "\(flushed.standardOutput)")
        let elsewhere = try #require(report["waitingForOtherServers"] as? [String: Int], "\(flushed.standardOutput)")
        #expect(elsewhere == ["http://127.0.0.1:\(reservation.port)": 1])

        let listed = try await home.conn(["outbox", "list"], server: b.url)
        #expect(listed.standardOutput.contains("for http://127.0.0.1:\(reservation.port), not the server configured now"), "\(listed.standardOutput)")
        let json = try await home.conn(["outbox", "list", "--json", "--all"], server: b.url)
        let message = try #require((try json.json()["messages"] as? [[String: Any]])?.first)
        #expect(message["server"] as? String == "http://127.0.0.1:\(reservation.port)")
        #expect(message["messagesUrl"] as? String == serverA.absoluteString + "/messages" && message["profile"] as? String == "default")
        #expect(message["idempotencyKey"] as? String == message["id"] as? String)

        // The agent against B: it runs, delivers nothing of A's, and says what waits elsewhere.
        let agent = try JSONLinesProcess(ConnProcess.connPath, ["agent", "--json", "--no-internet", "--interval", "500ms"],
                                         environment: home.environment.merging(["CONN_SERVER": b.url.absoluteString]) { $1 })
        _ = try #require(try await agent.await { $0["type"] as? String == "baseline" && $0["state"] as? String == "online" })
        try await Task.sleep(for: .seconds(2))
        let status = try await home.conn(["agent", "status", "--json"], server: b.url)
        let outbox = try #require(try status.json()["outbox"] as? [String: Any], "\(status.standardOutput)")
        #expect(outbox["waitingForOtherServers"] as? [String: Int] == ["http://127.0.0.1:\(reservation.port)": 1], "\(status.standardOutput)")
        #expect(await agent.stop() == 0)

        // The REPL against B, online for a few seconds with its background delivery.
        let repl = try await home.conn(["repl"], server: b.url, input: "watch --no-internet --until offline --timeout 3s\nexit 0\n")
        #expect(repl.exitCode == 0, "\(repl.standardError)")
        #expect(try await subjects(b).isEmpty, "B got A's message")

        // A comes back: its own flush sends it, once.
        reservation.release()
        let a = try await BackgroundServer.start(["--port", String(reservation.port)])
        let delivered = try await home.conn(["outbox", "flush"], server: serverA)
        #expect(delivered.exitCode == 0, "\(delivered.standardError)")
        #expect(try await subjects(a) == ["for A"])
        #expect(try await subjects(b).isEmpty)
        await a.stop()
        await b.stop()
    }

    @Test("retarget moves a message to the server in effect: delivered there with a key of its own; a sent one cannot move")
    func retarget() async throws {
        let closed = try HTTPPorts.closed()
        let queued = try await home.conn(["send", "--to", "ann@conn.example", "--subject", "for C, moved", "--text", "t", "--json"],
                                         server: URL(string: "http://127.0.0.1:\(closed)")!)
        let id = try #require(try queued.json()["id"] as? String, "\(queued.standardOutput)")
        let b = try await BackgroundServer.start()
        let moved = try await home.conn(["outbox", "retarget", String(id.prefix(8)), "--json"], server: b.url)
        #expect(moved.exitCode == 0, "\(moved.standardError)")
        let message = try #require((try moved.json()["messages"] as? [[String: Any]])?.first)
        #expect(message["server"] as? String == "http://127.0.0.1:\(b.port)")
        let key = try #require(message["idempotencyKey"] as? String)
        #expect(key != id && UUID(uuidString: key) != nil)
        let flushed = try await home.conn(["outbox", "flush"], server: b.url)
        #expect(flushed.exitCode == 0, "\(flushed.standardError)")
        #expect(try await subjects(b) == ["for C, moved"])
        // Sent: it stays where it went.
        let again = try await home.conn(["outbox", "retarget", String(id.prefix(8))], server: URL(string: "http://127.0.0.1:\(closed)")!)
        #expect(again.exitCode == 64 && again.standardError.contains("sent to"), "\(again.standardError)")
        await b.stop()
    }
}
