import ConnTestSupport
import Foundation
import Testing

/// An agent killed with SIGKILL leaves its control socket behind; the next agent takes the place
/// (it holds the lock, so no live agent owns the socket) and answers on it.
@Suite("conn agent: the socket a dead agent left")
struct AgentStaleSocketTests {
    @Test("SIGKILL leaves the socket; status then says no agent runs (69), not an error about the file; a new agent removes it, listens there and answers with its own pid")
    func staleSocketReplaced() async throws {
        let home = try TemporaryDirectory()
        let runtime = home.path + "/run"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try await ServerProcess.with { url in
            let environment = home.environment.merging(["CONN_SERVER": url.absoluteString, "XDG_RUNTIME_DIR": runtime]) { $1 }
            func agent() throws -> JSONLinesProcess {
                try JSONLinesProcess(ConnProcess.connPath, ["agent", "--json", "--no-internet"], environment: environment)
            }
            func sockets() -> [String] {
                ((try? FileManager.default.contentsOfDirectory(atPath: runtime + "/conn")) ?? []).filter { $0.hasSuffix(".sock") }
            }
            let first = try agent()
            _ = try #require(try await first.await { $0["type"] as? String == "started" }, "\(first.errorOutput)")
            #expect(sockets().count == 1, "\(sockets())")
            first.process.signal(SIGKILL)
            await first.process.exited()
            #expect(sockets().count == 1, "a SIGKILL leaves the socket: \(sockets())")

            let none = try await ConnProcess.run(ConnProcess.connPath, ["agent", "status"], environment: environment)
            #expect(none.exitCode == 69, "\(none.exitCode) \(none.standardError)")

            let second = try agent()
            _ = try #require(try await second.await { $0["type"] as? String == "started" }, "\(second.errorOutput)")
            let status = try await ConnProcess.run(ConnProcess.connPath, ["agent", "status", "--json"], environment: environment)
            #expect(status.exitCode == 0, "\(status.standardError)")
            #expect(try status.json()["pid"] as? Int == Int(second.process.processIdentifier), "\(status.standardOutput)")
            #expect(await second.stop() == 0)
            #expect(sockets().isEmpty, "a clean stop removes its socket: \(sockets())")
        }
    }

    @Test("SIGTERM with control requests queued (the agent was stopped while clients asked): it ends 0, not with NIO's trap on a connection nobody served")
    func termWithRequestsQueued() async throws {
        let home = try TemporaryDirectory()
        let runtime = home.path + "/run"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try await ServerProcess.with { url in
            let environment = home.environment.merging(["CONN_SERVER": url.absoluteString, "XDG_RUNTIME_DIR": runtime]) { $1 }
            let agent = try JSONLinesProcess(ConnProcess.connPath, ["agent", "--json", "--no-internet"], environment: environment)
            _ = try #require(try await agent.await { $0["type"] as? String == "started" }, "\(agent.errorOutput)")
            agent.process.signal(SIGSTOP)
            // Clients connect (the kernel accepts for it) and ask; each gives up after its 1 s.
            for _ in 0..<4 {
                let asked = try await ConnProcess.run(ConnProcess.connPath, ["agent", "status"], environment: environment)
                #expect(asked.exitCode == 69, "\(asked.standardError)")
            }
            agent.process.signal(SIGCONT)
            let status = await agent.stop()
            #expect(status == 0, "exit \(status): \(agent.errorOutput.prefix(600))")
            #expect(!agent.errorOutput.contains("Fatal error"), "\(agent.errorOutput.prefix(600))")
        }
    }
}
