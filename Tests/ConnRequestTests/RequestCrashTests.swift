import ConnCore
import ConnTestSupport
import Foundation
import GRDB
import Testing

/// Requests in the outbox under crashes: deliverers killed with SIGKILL mid-flush, again and
/// again, against a server that honours Idempotency-Key (bad_server.py).
@Suite("conn request under crashes")
struct RequestCrashTests {
    let home: TemporaryDirectory

    init() throws { home = try TemporaryDirectory() }

    @Test("2,000 queued requests, flushers killed with SIGKILL mid-flush six times: each reached the server with one key only, and was applied exactly once")
    func killedFlushers() async throws {
        let reservation = try HTTPPorts.reserved()
        let count = 2000
        // The outbox filled as 2,000 `conn request`s would leave it (bench/lib/fill-outbox.py, the
        // rows as conn writes them): 2,000 processes would take a minute of the suite.
        let created = try await home.conn(["outbox", "list"])
        #expect(created.exitCode == 0, "\(created.standardError)")
        let filler = JSONSchemaCheck.repositoryRoot.appendingPathComponent("bench/lib/fill-outbox.py").path
        let filled = try await ConnProcess.run("/usr/bin/env", ["python3", filler, home.path + "/data/conn/conn.sqlite", String(count), "crash",
                                                                "--requests", "http://127.0.0.1:\(reservation.port)/messages"],
                                               environment: ProcessInfo.processInfo.environment)
        #expect(filled.exitCode == 0, "\(filled.standardError)")
        let queued = try await home.conn(["outbox", "list", "--json"])
        #expect((try queued.json()["messages"] as? [[String: Any]])?.filter { $0["kind"] as? String == "request" }.count == count)
        reservation.release()
        // Each answer 20 ms late (sent whole, after a pause), so a kill lands with requests in flight.
        var route = BadServer.Route.inTurn("POST", "*", [.init(201, headers: [["Content-Type", "application/json"]], body: "{}")], idempotent: true)
        route.trickle = BadServer.Trickle(bytes: 4096, intervalMs: 20)
        try await BadServer.with([route], port: reservation.port) { server in
            let database = try DatabaseQueue(path: home.path + "/data/conn/conn.sqlite")
            func sending() throws -> Int { try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outboxMessage WHERE state = 'sending'") ?? 0 } }
            func sent() throws -> Int { try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outboxMessage WHERE state = 'sent'") ?? 0 } }
            var kills = 0
            for _ in 0..<6 {
                let before = try sent()
                let flusher = try SpawnedProcess(ConnProcess.connPath, ["outbox", "flush", "--concurrency", "8"], environment: home.environment)
                // Some delivered, and a batch claimed since (its attempts begun): a kill now
                // lands with requests in flight, not between two batches.
                _ = try await poll(for: 30, every: .milliseconds(5)) { try sent() >= before + 16 && sending() > 0 ? true : nil }
                // Frozen, so the kill lands with requests in flight.
                let python = try #require(server.processIdentifier)
                kill(python, SIGSTOP)
                if flusher.isRunning {
                    flusher.signal(SIGKILL)
                    kills += 1
                }
                await flusher.exited()
                kill(python, SIGCONT)
            }
            #expect(kills == 6, "a flush ended before it was killed; that round proves nothing")
            let final = try await home.conn(["outbox", "flush", "--wait", "60s"])
            #expect(final.exitCode == 0, "\(final.standardOutput) \(final.standardError)")
            let requests = try server.requests()
            // Each request's body names it (its subject): the keys it reached the server with.
            var keys: [String: Set<String>] = [:]
            for request in requests { keys[request.body, default: []].insert(request.header("Idempotency-Key") ?? "") }
            #expect(keys.count == count, "every request reached the server: \(keys.count)")
            #expect(keys.values.allSatisfy { $0.count == 1 && !$0.contains("") }, "one key each, on every attempt")
            let applied = server.applied()
            #expect(applied.count == count && Set(applied).count == count, "applied exactly once each: \(applied.count), \(Set(applied).count) distinct")
            let interrupted = try await database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outboxAttempt WHERE outcome = 'started'") ?? 0 }
            #expect(interrupted > 0, "the killed attempts are in the audit log as interrupted")
        }
    }
}
