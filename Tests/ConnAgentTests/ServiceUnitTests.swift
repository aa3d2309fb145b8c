import ConnTestSupport
import Foundation
import Testing

/// contrib/systemd/conn-agent.service, checked by systemd itself.
@Suite("systemd unit")
struct ServiceUnitTests {
    static let analyze = "/usr/bin/systemd-analyze"

    @Test("systemd-analyze verify accepts the unit without a warning (ExecStart pointed at the built conn)",
          .enabled(if: FileManager.default.isExecutableFile(atPath: analyze), "needs systemd-analyze (the systemd package)"))
    func verifies() async throws {
        let home = try TemporaryDirectory()
        let unit = try String(contentsOf: JSONSchemaCheck.repositoryRoot.appendingPathComponent("contrib/systemd/conn-agent.service"), encoding: .utf8)
        #expect(unit.contains("Type=notify") && unit.contains("ExecStart=/usr/bin/conn agent") && unit.contains("Restart=on-failure"))
        let path = try home.write("conn-agent.service", unit.replacingOccurrences(of: "/usr/bin/conn", with: ConnProcess.connPath))
        // --man=no: the pages are installed by a package, not here.
        let outcome = try await ConnProcess.run(Self.analyze, ["verify", "--man=no", path], environment: ["PATH": "/usr/bin:/bin"])
        #expect(outcome.exitCode == 0 && outcome.standardError.isEmpty && outcome.standardOutput.isEmpty,
                "\(outcome.standardOutput)\(outcome.standardError)")
    }

    static var unitFile: URL { JSONSchemaCheck.repositoryRoot.appendingPathComponent("contrib/systemd/conn-agent.service") }

    @Test("the unit's exposure (systemd-analyze --user security) is 3.0 or less: \"OK\"",
          .enabled(if: FileManager.default.isExecutableFile(atPath: analyze), "needs systemd-analyze (the systemd package)"))
    func exposure() async throws {
        let home = try TemporaryDirectory()
        let path = try home.write("conn-agent.service", try String(contentsOf: Self.unitFile, encoding: .utf8))
        let runtime = home.path + "/run"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        // Offline: judged from the file, without a user manager (CI has none).
        let outcome = try await ConnProcess.run(Self.analyze, ["security", "--offline=true", "--user", path],
                                                environment: ["PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": runtime, "HOME": home.path])
        let line = try #require(outcome.standardOutput.split(separator: "\n").first { $0.contains("Overall exposure level for conn-agent.service:") },
                                "\(outcome.standardOutput)\(outcome.standardError)")
        // "→ Overall exposure level for conn-agent.service: 1.8 OK :-)" (the number may be in bold).
        let after = String(line.components(separatedBy: "conn-agent.service:").last ?? "")
        let number = after.range(of: "[0-9]+\\.[0-9]+", options: .regularExpression).map { String(after[$0]) }
        let exposure = try #require(number.flatMap { Double($0) }, "\(line.debugDescription)")
        #expect(exposure <= 3.0, "\(line)")
    }

    @Test("under the unit's sandbox (read-only system and home, no capabilities, no new privileges, W^X memory, @system-service, four address families) the agent delivers, syncs and answers status",
          .enabled(if: NetworkNamespace.available, "needs root: a mount namespace"))
    func agentWorksInTheSandbox() async throws {
        let home = try TemporaryDirectory()
        let runtime = home.path + "/run"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // As systemd's user manager runs it: HOME and XDG_RUNTIME_DIR, the XDG defaults under HOME.
        let port = try HTTPPorts.outsideAutomaticRange()
        let url = URL(string: "http://127.0.0.1:\(port)")!
        let environment = ["HOME": home.path, "XDG_RUNTIME_DIR": runtime, "PATH": "/usr/bin:/bin", "CONN_SERVER": url.absoluteString]
        let queued = try await ConnProcess.run(ConnProcess.connPath, ["send", "--to", "ann@conn.example", "--subject", "sandboxed", "--text", "t"],
                                               environment: environment)
        #expect(queued.exitCode == 0, "\(queued.standardError)")

        let runner = JSONSchemaCheck.repositoryRoot.appendingPathComponent("Tests/ServiceSandbox/run_as_unit.py").path
        let agent = try JSONLinesProcess("/usr/bin/python3", [runner, Self.unitFile.path, "--", ConnProcess.connPath, "agent", "--json", "--interval", "1s", "--no-internet"],
                                         environment: environment)
        _ = try #require(try await agent.await { $0["type"] as? String == "started" }, "\(agent.events)")
        // The sandbox is in force on the agent's own process (python exec'd conn: one pid).
        let status = try String(contentsOfFile: "/proc/\(agent.process.processIdentifier)/status", encoding: .utf8)
        for expected in ["NoNewPrivs:\t1", "Seccomp:\t2", "CapEff:\t0000000000000000", "CapBnd:\t0000000000000000"] {
            #expect(status.contains(expected), "\(expected) in \(status)")
        }
        let mounts = try String(contentsOfFile: "/proc/\(agent.process.processIdentifier)/mountinfo", encoding: .utf8)
        #expect(mounts.split(separator: "\n").first { $0.split(separator: " ")[4] == "/" }?.contains(" ro") == true, "\(mounts)")

        let server = try await BackgroundServer.start(["--port", String(port), "--generate", "3"])
        let delivered = try await poll(for: 30, every: .milliseconds(100)) { () -> Bool? in
            let listed = try await ConnProcess.run(ConnProcess.connPath, ["outbox", "list", "--json", "--all"], environment: environment)
            let states = (try listed.json()["messages"] as? [[String: Any]] ?? []).compactMap { $0["state"] as? String }
            return states == ["sent"] ? true : nil
        }
        #expect(delivered == true, "\(agent.events)")
        _ = try #require(try await agent.await { $0["type"] as? String == "sync" }, "the inbox synced: \(agent.events)")
        let answered = try await ConnProcess.run(ConnProcess.connPath, ["agent", "status", "--json"], environment: environment)
        let answeredPID = try answered.json()["pid"] as? Int
        #expect(answered.exitCode == 0 && answeredPID == Int(agent.process.processIdentifier), "\(answered.standardError)")
        #expect(await agent.stop() == 0, "SIGTERM ends it cleanly, not the seccomp filter: \(agent.events)")
        await server.stop()
    }
}
