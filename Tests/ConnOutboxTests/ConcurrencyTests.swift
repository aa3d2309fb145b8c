import ConnTestSupport
import ConnCore
import Foundation
import GRDB
import Testing

/// Many conn processes on one outbox at once, and deliverers killed mid-flush: no message lost,
/// none stored twice, no "database is locked" reaching the user.
@Suite("outbox under concurrency and crashes", .serialized)
struct ConcurrencyTests {
    let home: TemporaryDirectory

    init() throws { home = try TemporaryDirectory() }

    var databasePath: String { home.path + "/data/conn/conn.sqlite" }

    func environment(_ server: URL) -> [String: String] {
        home.environment.merging(["CONN_SERVER": server.absoluteString, "CONN_TIMEOUT": "5s"]) { $1 }
    }

    /// Subjects the server stored, with how many times each.
    func storedSubjects(_ server: BackgroundServer) async throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for email in try await server.inbox() { counts[email["subject"] as? String ?? "", default: 0] += 1 }
        return counts
    }

    @Test("8 processes × 200 sends against a server failing 20% of requests, 2 flushers alongside: every message stored exactly once")
    func concurrentSenders() async throws {
        let server = try await BackgroundServer.start(["--fail-rate", "0.2"])
        let environment = environment(server.url)
        let senders = 8, perSender = 200
        let failures = try await withThrowingTaskGroup(of: [String].self) { group in
            for sender in 0..<senders {
                group.addTask {
                    var problems: [String] = []
                    for index in 0..<perSender {
                        let outcome = try await ConnProcess.run(
                            ConnProcess.connPath, ["send", "--to", "ada@example.com", "--subject", "s\(sender)-\(index)", "--text", "t"],
                            environment: environment)
                        if outcome.exitCode != 0 || outcome.standardError.contains("locked") {
                            problems.append("s\(sender)-\(index): \(outcome.exitCode) \(outcome.standardError)")
                        }
                    }
                    return problems
                }
            }
            for _ in 0..<2 {
                group.addTask {
                    var problems: [String] = []
                    for _ in 0..<20 {
                        let outcome = try await ConnProcess.run(ConnProcess.connPath, ["outbox", "flush"], environment: environment)
                        if outcome.standardError.contains("locked") || ![0, 75].contains(outcome.exitCode) {
                            problems.append("flush: \(outcome.exitCode) \(outcome.standardError)")
                        }
                    }
                    return problems
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        let final = try await ConnProcess.run(ConnProcess.connPath, ["outbox", "flush", "--wait", "60s"], environment: environment)
        #expect(final.exitCode == 0, "\(final.standardError)")
        let stored = try await storedSubjects(server)
        #expect(stored.count == senders * perSender)
        #expect(stored.values.allSatisfy { $0 == 1 }, "duplicates: \(stored.filter { $0.value > 1 }.prefix(5))")
        let database = try DatabaseQueue(path: databasePath)
        let states = try database.read { db in try Row.fetchAll(db, sql: "SELECT state, COUNT(*) AS n FROM outboxMessage GROUP BY state") }
        #expect(states.map { "\($0["state"] as String)=\($0["n"] as Int)" } == ["sent=\(senders * perSender)"])
    }

    @Test("deliverers killed with SIGKILL mid-flush, again and again: the next flush delivers every message exactly once")
    func killedDeliverers() async throws {
        let downPortReservation = try HTTPPorts.reserved()
        let downPort = downPortReservation.port
        let down = URL(string: "http://127.0.0.1:\(downPort)")!
        let count = 300
        // Queue while the server is down (each send fails fast and leaves the message pending).
        let queueEnvironment = environment(down)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for part in 0..<4 {
                group.addTask {
                    for index in stride(from: part, to: count, by: 4) {
                        let outcome = try await ConnProcess.run(
                            ConnProcess.connPath, ["send", "--to", "ada@example.com", "--subject", "k\(index)", "--text", "t"], environment: queueEnvironment)
                        #expect(outcome.exitCode == 0, "\(outcome.standardError)")
                    }
                }
            }
            try await group.waitForAll()
        }
        // A slow server, so kills land while requests are in flight.
        downPortReservation.release()
        let server = try await BackgroundServer.start(["--port", String(downPort), "--latency-ms", "20"])
        // Each round: a flusher, killed once it has delivered some (its progress in the outbox)
        // with the server frozen, so the kill lands while it still works: requests in flight,
        // messages left (300 are far more than six rounds deliver).
        let database = try DatabaseQueue(path: databasePath)
        func sent() throws -> Int { try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outboxMessage WHERE state = 'sent'") ?? 0 } }
        func sending() throws -> Int { try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outboxMessage WHERE state = 'sending'") ?? 0 } }
        var kills = 0
        for _ in 0..<6 {
            let before = try sent()
            let flusher = try SpawnedProcess(ConnProcess.connPath, ["outbox", "flush", "--concurrency", "4"], environment: environment(server.url))
            // Some delivered, and a batch claimed since (its attempts begun): the kill lands with
            // requests in flight, not in the moment between two batches (a loaded machine did).
            _ = try await poll(for: 30, every: .milliseconds(5)) { try sent() >= before + 8 && sending() > 0 ? true : nil }
            server.signal(SIGSTOP)
            if flusher.isRunning {
                flusher.signal(SIGKILL)
                kills += 1
            }
            await flusher.exited()
            server.signal(SIGCONT)
        }
        #expect(kills == 6, "a flush ended before it was killed; that round proves nothing")
        let final = try await ConnProcess.run(ConnProcess.connPath, ["outbox", "flush", "--json"], environment: environment(server.url))
        #expect(final.exitCode == 0, "\(final.standardError)")
        let stored = try await storedSubjects(server)
        #expect(stored.count == count)
        #expect(stored.values.allSatisfy { $0 == 1 })
        // The killed attempts are in the audit log as interrupted, not lost.
        let interrupted = try await database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outboxAttempt WHERE outcome = 'started'") ?? 0 }
        #expect(interrupted > 0)
    }
}
