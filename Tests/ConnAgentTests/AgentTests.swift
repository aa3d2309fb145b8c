import ConnTestSupport
import Foundation
import GRDB
import Testing

/// `conn agent` as a user runs it: real agent processes, the real conn-server, a real SQLite file.
@Suite("conn agent")
struct AgentTests {
    let home: TemporaryDirectory

    init() throws { home = try TemporaryDirectory() }

    func environment(_ server: URL, _ extra: [String: String] = [:]) -> [String: String] {
        home.environment.merging(["CONN_SERVER": server.absoluteString]) { $1 }.merging(extra) { $1 }
    }

    /// An agent that checks every second (so a server that starts is noticed at once).
    func agent(_ server: URL, _ extra: [String: String] = [:], options: [String] = []) throws -> JSONLinesProcess {
        try JSONLinesProcess(ConnProcess.connPath, ["agent", "--json", "--no-internet", "--interval", "1s"] + options, environment: environment(server, extra))
    }

    func outboxStates() async throws -> [String] {
        let listed = try await home.conn(["outbox", "list", "--json", "--all"])
        return (try listed.json()["messages"] as? [[String: Any]] ?? []).compactMap { $0["state"] as? String }
    }

    /// How many messages are sent, read from the outbox table itself: a read takes microseconds,
    /// where `outbox list` is a process (seconds on a loaded machine, long enough for a whole
    /// delivery to finish unseen).
    func sentCount() throws -> Int {
        let database = try DatabaseQueue(path: home.path + "/data/conn/conn.sqlite")
        return try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outboxMessage WHERE state = 'sent'") ?? 0 }
    }

    func waitUntil(_ seconds: Double, _ condition: () async throws -> Bool) async throws -> Bool {
        try await poll(for: seconds, every: .milliseconds(50)) { try await condition() ? true : nil } ?? false
    }

    @Test("queued while the server is down, delivered by the agent alone once it starts; each stored once; SIGTERM ends it with 0")
    func deliversWhenTheServerComesBack() async throws {
        let port = try HTTPPorts.outsideAutomaticRange()
        let url = URL(string: "http://127.0.0.1:\(port)")!
        let agent = try agent(url)
        _ = try #require(try await agent.await { $0["type"] as? String == "started" })
        for index in 1...3 {
            let sent = try await home.conn(["send", "--to", "ann@conn.example", "--subject", "m\(index)", "--text", "t"], server: url)
            #expect(sent.exitCode == 0)
            #expect(sent.standardError.contains("The agent (pid \(agent.process.processIdentifier)) delivers it"), "\(sent.standardError)")
            // Queued: stdout is the summary line (the short id first), stderr the one line above.
            #expect(sent.standardOutput.range(of: "^[0-9a-f]{8}  sending  to ann@conn.example  m\(index)\n$", options: .regularExpression) != nil,
                    "\(sent.standardOutput)")
        }
        let listed = try await home.conn(["outbox", "list"], server: url)
        #expect(listed.standardOutput.contains("the agent (pid \(agent.process.processIdentifier)) tries again"), "\(listed.standardOutput)")
        let server = try await BackgroundServer.start(["--port", String(port)])
        // How soon is a benchmark's to measure (bench/), not a test's: here, that it happens.
        let delivered = try await waitUntil(30) { try await outboxStates() == ["sent", "sent", "sent"] }
        #expect(delivered, "\(agent.events)")
        let stored = try await ServerInbox.subjects(server.url)
        #expect(stored.filter { $0.hasPrefix("m") }.sorted() == ["m1", "m2", "m3"])
        #expect(await agent.stop() == 0)
        #expect(agent.events.last?["type"] as? String == "stopped" && agent.events.last?["detail"] as? String == "SIGTERM")
        await server.stop()
    }

    @Test("a second agent for the same database is refused with 75, naming the first; status answers, then 69 once it stopped")
    func onePerDatabase() async throws {
        try await ServerProcess.with { url in
            let first = try agent(url)
            _ = try #require(try await first.await { $0["type"] as? String == "baseline" })
            let second = try await home.conn(["agent", "--no-internet"], server: url)
            #expect(second.exitCode == 75)
            #expect(second.standardError.contains("pid \(first.process.processIdentifier)"), "\(second.standardError)")
            let status = try await home.conn(["agent", "status", "--json"], server: url)
            #expect(status.exitCode == 0, "\(status.standardError)")
            #expect(try await JSONSchemaCheck.violations(of: status.standardOutput, schema: "agent-status").isEmpty)
            let object = try status.json()
            #expect(object["pid"] as? Int == Int(first.process.processIdentifier) && object["state"] as? String == "online")
            // The last look's targets (what conn top draws), as probe --json writes them.
            let targets = try #require(object["targets"] as? [[String: Any]], "\(status.standardOutput)")
            #expect(targets.first?["url"] as? String == "\(url.absoluteString)/health" && targets.first?["verdict"] as? String == "reachable")
            #expect(object["lookedAt"] is String)
            #expect(await first.stop() == 0)
            let none = try await home.conn(["agent", "status"], server: url)
            #expect(none.exitCode == 69 && none.standardError.contains("no agent runs"), "\(none.standardError)")
            let queued = try await home.conn(["send", "--to", "a@b.cc", "--subject", "s", "--text", "t", "--server", "http://127.0.0.1:1"])
            #expect(queued.standardError.contains("No agent is running"), "\(queued.standardError)")
        }
    }

    @Test("an agent watching 600 targets with long URLs answers status whole (over 1 MiB, past the socket's buffer and the client's old cap): every target's result, valid JSON")
    func largeStatusArrivesWhole() async throws {
        try await ServerProcess.with { url in
            // Long query strings make the answer pass 1 MiB (what a fleet of ~1,300 plain
            // targets answers) without looking at more targets.
            let padding = String(repeating: "p", count: 1_500)
            let targets = (1...600).map { "\(url.absoluteString)/health?n=\($0)&pad=\(padding)" }
            let running = try agent(url, options: targets)
            // The baseline comes after the first look at every target: then all 600 have a result.
            _ = try #require(try await running.await(60) { $0["type"] as? String == "baseline" })
            let status = try await home.conn(["agent", "status", "--json"], server: url)
            #expect(status.exitCode == 0, "\(status.standardError)")
            #expect(status.standardOutput.utf8.count > 1 << 20, "\(status.standardOutput.utf8.count) bytes")
            let listed = try status.json()["targets"] as? [[String: Any]] ?? []
            #expect(Set(listed.compactMap { $0["url"] as? String }) == Set(targets), "\(listed.count) targets in the answer")
            #expect(await running.stop() == 0)
        }
    }

    @Test("the control socket reads a request line of at most 64 KiB: 8 MiB without a newline has the connection closed, and status still answers")
    func controlLineIsBounded() async throws {
        let runtime = home.path + "/run"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let extra = ["XDG_RUNTIME_DIR": runtime]
        try await ServerProcess.with { url in
            let running = try agent(url, extra)
            _ = try #require(try await running.await { $0["type"] as? String == "baseline" })
            let names = try FileManager.default.contentsOfDirectory(atPath: runtime + "/conn")
            let socket = try #require(names.first { $0.hasPrefix("agent-") && $0.hasSuffix(".sock") }, "\(names)")
            let flood = """
                import socket, sys
                s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.settimeout(10)
                sent = 0
                try:
                    while sent < 8 << 20:
                        s.sendall(b"x" * 65536); sent += 65536
                    data = s.recv(10)
                except (BrokenPipeError, ConnectionResetError):
                    data = b""
                print("closed" if data == b"" else "answered", sent)
                """
            let outcome = try await ConnProcess.run("/usr/bin/python3", ["-c", flood, runtime + "/conn/" + socket], environment: [:])
            #expect(outcome.standardOutput.hasPrefix("closed"), "\(outcome.standardOutput) \(outcome.standardError)")
            let sent = Int(outcome.standardOutput.split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? .max
            #expect(sent < 8 << 20, "the agent read all 8 MiB: \(outcome.standardOutput)")
            let status = try await ConnProcess.run(ConnProcess.connPath, ["agent", "status", "--json"], environment: environment(url, extra))
            #expect(status.exitCode == 0, "\(status.standardError)")
            #expect(await running.stop() == 0)
        }
    }

    @Test("send hands a message its own attempt could not deliver to the agent, which delivers it without any other command")
    func sendWakesTheAgent() async throws {
        let port = try HTTPPorts.outsideAutomaticRange()
        let failing = try await BackgroundServer.start(["--port", String(port), "--fail-rate", "1"])
        let agent = try agent(failing.url)
        _ = try #require(try await agent.await { $0["type"] as? String == "baseline" })
        let sent = try await home.conn(["send", "--to", "ann@conn.example", "--subject", "woken", "--text", "t"], server: failing.url)
        #expect(sent.exitCode == 0 && sent.standardError.contains("The agent (pid"), "\(sent.standardError)")
        await failing.stop()
        let server = try await BackgroundServer.start(["--port", String(port)])
        #expect(try await waitUntil(30) { try await outboxStates() == ["sent"] }, "\(agent.events)")
        #expect(try await ServerInbox.subjects(server.url).filter { $0 == "woken" }.count == 1)
        #expect(await agent.stop() == 0)
        await server.stop()
    }

    /// A stand-in for systemd: listens on the abstract socket `@name` and prints each datagram as
    /// `{"message": …}`, until STOPPING=1.
    static func notifyListener(_ name: String) async throws -> JSONLinesProcess {
        let listener = try JSONLinesProcess("/usr/bin/env", ["python3", "-c", """
            import json, socket, sys
            s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            s.bind("\\0\(name)")
            print(json.dumps({"ready": True}), flush=True)
            while True:
                data = s.recv(4096).decode()
                print(json.dumps({"message": data}), flush=True)
                if "STOPPING=1" in data: break
            """], environment: ProcessInfo.processInfo.environment)
        _ = try #require(try await listener.await { $0["ready"] as? Bool == true })
        return listener
    }

    @Test("systemd's notify protocol: READY=1 once running, STOPPING=1 on SIGTERM, to an abstract socket")
    func notifiesSystemd() async throws {
        let name = "conn-test-notify-\(UUID().uuidString.prefix(8))"
        let listener = try await Self.notifyListener(name)
        try await ServerProcess.with { url in
            let agent = try agent(url, ["NOTIFY_SOCKET": "@\(name)"])
            let ready = try #require(try await listener.await { ($0["message"] as? String)?.contains("READY=1") == true })
            #expect((ready["message"] as? String)?.contains("STATUS=") == true)
            #expect(await agent.stop() == 0)
            _ = try #require(try await listener.await { ($0["message"] as? String)?.contains("STOPPING=1") == true })
        }
        #expect(await listener.process.exited(killingAfter: 30) == 0)
    }

    @Test("SIGHUP is a reload, not a stop: RELOADING=1 with MONOTONIC_USEC, then READY=1, no STOPPING=1; the link stays up and the status is kept")
    func reloadIsAReload() async throws {
        let name = "conn-test-reload-\(UUID().uuidString.prefix(8))"
        let listener = try await Self.notifyListener(name)
        func messages() -> [String] { listener.events.compactMap { $0["message"] as? String } }
        try await ServerProcess.with { url in
            let agent = try agent(url, ["NOTIFY_SOCKET": "@\(name)"])
            _ = try #require(try await listener.await { ($0["message"] as? String)?.contains("READY=1") == true })
            _ = try #require(try await agent.await { ($0["connectionState"] as? [String: Any])?["status"] as? String == "connected" },
                             "\(agent.events)")
            let linkEventsBefore = agent.events.filter { $0["type"] as? String == "connectionState" }.count
            let messagesBefore = messages().count

            kill(agent.process.processIdentifier, SIGHUP)
            _ = try #require(try await agent.await { $0["type"] as? String == "reloaded" }, "\(agent.events)")
            // After the signal, in this order: RELOADING=1 (with the monotonic clock), READY=1.
            let lines = { (message: String) in message.split(separator: "\n").map(String.init) }
            let reloaded = await poll(for: 30, every: .milliseconds(20)) {
                messages().dropFirst(messagesBefore).contains { lines($0).contains("READY=1") } ? true : nil
            }
            try #require(reloaded == true, "\(messages())")
            let afterSignal = Array(messages().dropFirst(messagesBefore))
            let reloading = try #require(afterSignal.firstIndex { lines($0).contains("RELOADING=1") }, "\(afterSignal)")
            let monotonic = lines(afterSignal[reloading]).first { $0.hasPrefix("MONOTONIC_USEC=") }
            #expect(monotonic.flatMap { UInt64($0.dropFirst("MONOTONIC_USEC=".count)) }.map { $0 > 0 } == true, "\(afterSignal)")
            let ready = try #require(afterSignal.firstIndex { lines($0).contains("READY=1") })
            #expect(reloading < ready, "\(afterSignal)")
            #expect(!messages().contains { $0.contains("STOPPING=1") }, "\(messages())")

            // Nothing the session depends on changed: the link was not dropped and made again,
            // and the agent still knows the state (it is not reported anew).
            try await Task.sleep(for: .milliseconds(500))
            #expect(agent.events.filter { $0["type"] as? String == "connectionState" }.count == linkEventsBefore, "\(agent.events)")
            let status = try await home.conn(["agent", "status", "--json"], server: url)
            #expect(status.exitCode == 0, "\(status.standardError)")
            let report = try status.json()
            #expect(report["state"] as? String == "online", "\(report)")
            #expect((report["connectionState"] as? [String: Any])?["status"] as? String == "connected", "\(report)")

            #expect(await agent.stop() == 0)
            _ = try #require(try await listener.await { ($0["message"] as? String)?.contains("STOPPING=1") == true })
        }
        #expect(await listener.process.exited(killingAfter: 30) == 0)
    }

    @Test("the inbox is synced after a reconnect: a message the server got while conn was away is in inbox list, no fetch typed")
    func syncsOnReconnect() async throws {
        let port = try HTTPPorts.outsideAutomaticRange()
        let data = home.path + "/server.sqlite"
        let one = #"{"uid":"1","from":"a@b.cc","to":"me@x.cc","subject":"first","text":"t","responseToUid":"","dateTime":"Today"}"#
        let two = #"{"uid":"2","from":"a@b.cc","to":"me@x.cc","subject":"while away","text":"t","responseToUid":"","dateTime":"Today"}"#
        let seedOne = try home.write("one.json", #"{"inbox":[\#(one)]}"#)
        let seedTwo = try home.write("two.json", #"{"inbox":[\#(one),\#(two)]}"#)
        let server = try await BackgroundServer.start(["--port", String(port), "--data", data, "--seed", seedOne])
        let agent = try agent(server.url)
        _ = try #require(try await agent.await { $0["type"] as? String == "sync" }, "\(agent.events)")
        server.signal(SIGKILL)
        await server.stop()
        _ = try #require(try await agent.await { $0["type"] as? String == "change" && $0["state"] as? String == "serverUnreachable" },
                         "\(agent.events.map { "\($0["at"] ?? "") \($0["type"] ?? "") \($0["state"] ?? "") \($0["reason"] ?? "") \(($0["connectionState"] as? [String: Any])?["status"] ?? "")" }) running: \(agent.process.isRunning) stderr: \(agent.errorOutput.suffix(3000))")
        let again = try await BackgroundServer.start(["--port", String(port), "--data", data, "--seed", seedTwo])
        let synced = try await waitUntil(30) {
            let list = try await home.conn(["inbox", "list", "--json"], server: again.url)
            return (try? list.json()["conversations"] as? [[String: Any]])?.contains { $0["subject"] as? String == "while away" } == true
        }
        #expect(synced, "\(agent.events)")
        #expect(await agent.stop() == 0)
        await again.stop()
    }

    @Test("an agent killed with SIGKILL mid-delivery and started again loses nothing and stores nothing twice")
    func killedAndRestarted() async throws {
        let port = try HTTPPorts.outsideAutomaticRange()
        let url = URL(string: "http://127.0.0.1:\(port)")!
        // More than one batch (the deliverer claims 64 and records their outcomes together), so a
        // kill after the first batch's outcomes lands while the second is in flight.
        let count = 100
        for index in 1...count {
            _ = try await home.conn(["send", "--to", "ann@conn.example", "--subject", "k\(index)", "--text", "t"], server: url)
        }
        // A slow server: the second batch takes about a second (5 rounds of 8 at 200 ms).
        let server = try await BackgroundServer.start(["--port", String(port), "--latency-ms", "200"])
        let first = try agent(url)
        #expect(try await poll(for: 30, every: .milliseconds(5)) { try sentCount() >= 1 ? true : nil } == true)
        // The server frozen: the request in flight waits, and what is unsent stays so.
        server.signal(SIGSTOP)
        let unsent = try await outboxStates().filter { $0 != "sent" }.count
        #expect(unsent > 0, "all \(count) were delivered before the kill: it landed after the work, and proves nothing")
        kill(first.process.processIdentifier, SIGKILL)
        await first.process.exited()
        server.signal(SIGCONT)
        let second = try agent(url)
        // Started before it is stopped: the first agent may have delivered everything already,
        // and a SIGTERM in the first milliseconds of a process (before conn catches it) ends it
        // by the signal — which children of SpawnedProcess, with no signal blocked, now see.
        _ = try #require(try await second.await { $0["type"] as? String == "started" }, "\(second.errorOutput)")
        let allSent = try await waitUntil(30) { try await outboxStates() == Array(repeating: "sent", count: count) }
        let states = try await outboxStates()
        #expect(allSent, "\(states)")
        let stored = try await ServerInbox.subjects(server.url).filter { $0.hasPrefix("k") }
        #expect(stored.count == count && Set(stored).count == count, "\(stored.sorted())")
        let stopping = Date()
        let status = await second.stop()
        #expect(status == 0, "status \(status) after \(Date().timeIntervalSince(stopping)) s; stderr: \(second.errorOutput.suffix(3000))")
        await server.stop()
    }

    /// Queues `count` messages for a server that is not there, eight `conn send`s at a time.
    func queue(_ count: Int, prefix: String, to url: URL) async throws {
        let script = """
            for i in $(seq 1 \(count)); do
                "$CONN" send --to ann@conn.example --subject "\(prefix)$i" --text t >/dev/null 2>&1 &
                if [ $((i % 8)) -eq 0 ]; then wait; fi
            done
            wait
            """
        let outcome = try await ConnProcess.run("/bin/bash", ["-c", script], environment: environment(url, ["CONN": ConnProcess.connPath]))
        #expect(outcome.exitCode == 0)
        #expect(try await outboxStates().count == count)
    }

    @Test("under injected faults (30 % 5xx, 30 % answers dropped after storing), with a concurrent outbox flush: every message stored exactly once")
    func exactlyOnceUnderFaults() async throws {
        let port = try HTTPPorts.outsideAutomaticRange()
        let url = URL(string: "http://127.0.0.1:\(port)")!
        let data = home.path + "/server.sqlite"  // one store for both servers below
        try await queue(40, prefix: "f", to: url)
        let faulty = try await BackgroundServer.start(["--port", String(port), "--data", data, "--fail-rate", "0.3", "--drop-response-rate", "0.3"])
        let agent = try agent(url)
        // A person flushing by hand at the same time: leases keep the two apart.
        let flush = try await home.conn(["outbox", "flush", "--wait", "10s"], server: url)
        #expect([0, 75].contains(flush.exitCode), "\(flush.standardError)")
        await faulty.stop()
        // Then the faults end. A message that failed six times in a row waits out a backoff of
        // half a minute or more; the point here is exactly once, not how soon: the server comes
        // back clean and both deliverers finish (a becoming-reachable pass ignores the backoff).
        let clean = try await BackgroundServer.start(["--port", String(port), "--data", data])
        _ = try await home.conn(["outbox", "flush", "--wait", "20s"], server: url)
        let allSent = try await waitUntil(30) { try await outboxStates() == Array(repeating: "sent", count: 40) }
        let states = try await outboxStates()
        #expect(allSent, "\(states)")
        let stored = try await ServerInbox.subjects(clean.url).filter { $0.hasPrefix("f") }
        #expect(stored.count == 40 && Set(stored).count == 40, "\(stored.sorted())")
        #expect(await agent.stop() == 0)
        await clean.stop()
    }

    @Test("SIGTERM in the middle of 200 deliveries: exit 0; started again, every message is stored once")
    func stoppedMidDelivery() async throws {
        let port = try HTTPPorts.outsideAutomaticRange()
        let url = URL(string: "http://127.0.0.1:\(port)")!
        let count = 200
        try await queue(count, prefix: "t", to: url)
        // 100 ms each, 8 at a time: the first batch's outcomes (64) come at about 0.8 s, the rest
        // take about 1.7 s more.
        let server = try await BackgroundServer.start(["--port", String(port), "--latency-ms", "100"])
        let first = try agent(url)
        #expect(try await poll(for: 30, every: .milliseconds(5)) { try sentCount() >= 1 ? true : nil } == true)
        // Counted with the server frozen (nothing more can be sent meanwhile): some are still to go.
        server.signal(SIGSTOP)
        let unsent = try await outboxStates().filter { $0 != "sent" }.count
        server.signal(SIGCONT)
        #expect(unsent > 0, "all \(count) were delivered before the signal: it landed after the work, and proves nothing")
        #expect(await first.stop() == 0, "\(first.errorOutput.suffix(2000))")
        #expect(first.events.last?["type"] as? String == "stopped")
        let second = try agent(url)
        // Started before it is stopped: the first agent may have delivered everything already,
        // and a SIGTERM in the first milliseconds of a process (before conn catches it) ends it
        // by the signal — which children of SpawnedProcess, with no signal blocked, now see.
        _ = try #require(try await second.await { $0["type"] as? String == "started" }, "\(second.errorOutput)")
        let allSent = try await waitUntil(30) { try await outboxStates() == Array(repeating: "sent", count: count) }
        let states = try await outboxStates()
        #expect(allSent, "\(states.filter { $0 != "sent" })")
        let stored = try await ServerInbox.subjects(server.url).filter { $0.hasPrefix("t") }
        #expect(stored.count == count && Set(stored).count == count, "\(stored.count) stored, \(Set(stored).count) distinct")
        #expect(await second.stop() == 0)
        await server.stop()
    }

    @Test("SIGHUP re-reads the configuration: a broken file is reported and the one in effect kept; a good one is taken, and the outbox goes to its server")
    func rereadsTheConfiguration() async throws {
        let closed = URL(string: "http://127.0.0.1:\(try HTTPPorts.closed())")!
        let configDirectory = (home.configFile as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: configDirectory, withIntermediateDirectories: true)
        func configure(_ text: String) throws { try text.write(toFile: home.configFile, atomically: true, encoding: .utf8) }
        try configure("server: \(closed.absoluteString)\n")
        try await ServerProcess.with { url in
            // The server comes from the file alone (no CONN_SERVER), so a re-read can change it.
            let agent = try JSONLinesProcess(ConnProcess.connPath, ["agent", "--json", "--no-internet", "--interval", "1s"],
                                             environment: home.environment)
            _ = try #require(try await agent.await { $0["type"] as? String == "baseline" }, "\(agent.errorOutput)")
            let queued = try await home.conn(["send", "--to", "ann@conn.example", "--subject", "moved", "--text", "t"])
            #expect(queued.exitCode == 0, "\(queued.standardError)")

            try configure("server: [unclosed\n")
            kill(agent.process.processIdentifier, SIGHUP)
            let failed = try #require(try await agent.await { $0["type"] as? String == "reloadFailed" })
            #expect((failed["detail"] as? String)?.isEmpty == false)
            #expect(agent.process.isRunning)
            #expect(agent.errorOutput.contains("SIGHUP: the configuration cannot be used"), "\(agent.errorOutput)")

            try configure("server: \(url.absoluteString)\n")
            kill(agent.process.processIdentifier, SIGHUP)
            let reloaded = try #require(try await agent.await { $0["type"] as? String == "reloaded" })
            #expect((reloaded["detail"] as? String)?.contains(url.absoluteString) == true, "\(reloaded)")
            // The message is for the server it was queued for; moved to the new one on purpose,
            // the reloaded agent (woken by retarget) delivers it there.
            let id = try #require((try await home.conn(["outbox", "list", "--json", "--all"]).json()["messages"] as? [[String: Any]])?.first?["id"] as? String)
            #expect(try await home.conn(["outbox", "retarget", id]).exitCode == 0)
            #expect(try await waitUntil(30) { try await outboxStates() == ["sent"] }, "\(agent.events)")
            #expect(try await ServerInbox.subjects(url).filter { $0 == "moved" }.count == 1)
            // The control socket answers again, from the loop over the new configuration.
            let status = try await home.conn(["agent", "status", "--json"])
            #expect(status.exitCode == 0, "\(status.standardError)")
            #expect(try status.json()["server"] as? String == url.absoluteString)
            #expect(await agent.stop() == 0)
            #expect(agent.events.filter { $0["type"] as? String == "started" }.count == 1)
            #expect(try await JSONSchemaCheck.violations(of: agent.events.map { try JSONSerialization.data(withJSONObject: $0) }
                .map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n"), schema: "agent-event").isEmpty)
        }
    }

    @Test("a database this user cannot write: the agent ends at once with 77 saying so, not a retry loop",
          .enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "needs root and setpriv to run conn as another user"))
    func readOnlyDatabase() async throws {
        #expect(try await home.conn(["outbox", "list"]).exitCode == 0)  // creates and migrates it
        _ = try await ConnProcess.run("/bin/chown", ["-R", "nobody", home.path], environment: [:])
        chmod(home.path + "/data/conn/conn.sqlite", 0o444)
        let runtime = home.path + "/run"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        _ = try await ConnProcess.run("/bin/chown", ["nobody", runtime], environment: [:])
        let started = try await ConnProcess.run(
            "/usr/bin/setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups", ConnProcess.connPath, "agent", "--no-internet"],
            environment: environment(URL(string: "http://127.0.0.1:1")!, ["XDG_RUNTIME_DIR": runtime]))
        #expect(started.exitCode == 77, "exit \(started.exitCode): \(started.standardError)")
        #expect(started.standardError.contains("read-only"), "\(started.standardError)")
    }

    @Test("disk full during a sync: the sync fails saying so, the cache is as it was, the agent goes on and delivers",
          .enabled(if: getuid() == 0, "needs root to mount a small tmpfs"))
    func diskFullDuringSync() async throws {
        let data = home.path + "/data"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let mounted = try await ConnProcess.run("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", data], environment: [:])
        try #require(mounted.exitCode == 0, "mount: \(mounted.standardError)")
        defer { _ = umount(data) }
        func seed(_ name: String, _ count: Int, text: String) throws -> String {
            let messages = (1...count).map {
                #"{"uid":"\#($0)","from":"a@b.cc","to":"me@x.cc","subject":"\#(name) \#($0)","text":"\#(text)","responseToUid":"","dateTime":"Today"}"#
            }
            return try home.write("\(name).json", #"{"inbox":[\#(messages.joined(separator: ","))]}"#)
        }
        // A small inbox cached first; then the server's inbox outgrows the disk (1.5 MB of text).
        let port = try HTTPPorts.outsideAutomaticRange()
        let small = try await BackgroundServer.start(["--port", String(port), "--data", home.path + "/small.sqlite", "--seed", try seed("kept", 1, text: "t")])
        #expect(try await home.conn(["inbox", "fetch"], server: small.url).exitCode == 0)
        let closed = URL(string: "http://127.0.0.1:\(try HTTPPorts.closed())")!
        let queued = try await home.conn(["send", "--to", "ann@conn.example", "--subject", "still delivered", "--text", "t", "--json"], server: closed)
        let id = try #require(try queued.json()["id"] as? String)
        // Queued for the closed port; moved to the agent's server (same port for small and big).
        #expect(try await home.conn(["outbox", "retarget", id], server: small.url).exitCode == 0)
        await small.stop()
        let big = try await BackgroundServer.start(["--port", String(port), "--data", home.path + "/big.sqlite",
                                                    "--seed", try seed("big", 3000, text: String(repeating: "x", count: 500))])
        let agent = try agent(big.url)
        let failed = try #require(try await agent.await { $0["type"] as? String == "sync" }, "\(agent.events) \(agent.errorOutput)")
        let sync = try #require(failed["sync"] as? [String: Any])
        #expect(sync["ok"] as? Bool == false, "\(sync)")
        let error = (sync["error"] as? String ?? "").lowercased()
        #expect(error.contains("space") || error.contains("full"), "\(sync)")
        #expect(try await waitUntil(30) { try await outboxStates() == ["sent"] }, "\(agent.events)")
        #expect(agent.process.isRunning)
        // The copy of this server's inbox (read offline) is the small one, as it was.
        let listed = try await home.conn(["inbox", "list", "--json"], server: big.url)
        let subjects = (try listed.json()["conversations"] as? [[String: Any]] ?? []).compactMap { $0["subject"] as? String }
        #expect(subjects == ["kept 1"], "\(subjects.prefix(5)) \(listed.standardError)")
        #expect(await agent.stop() == 0)
        #expect(try await ServerInbox.subjects(big.url).filter { $0 == "still delivered" }.count == 1)
        await big.stop()
    }

    @Test("no server configured: 78 at start, saying how to configure one")
    func noServer() async throws {
        let outcome = try await home.conn(["agent", "--no-internet"])
        #expect(outcome.exitCode == 78, "\(outcome.exitCode) \(outcome.standardError)")
        #expect(outcome.standardError.contains("no server is configured") && outcome.standardError.contains("--server"), "\(outcome.standardError)")
    }

    @Test("a server that refuses the token: delivery pauses, agent status says why, the agent keeps running")
    func refusedToken() async throws {
        try await ServerProcess.with(["--token", "right-token"]) { url in
            // Queued while the server refuses (the send's own attempt is refused too), for this server.
            #expect(try await home.conn(["send", "--to", "ann@conn.example", "--subject", "held", "--text", "t"], server: url,
                                        env: ["CONN_TOKEN": "wrong-token"]).exitCode == 77)
            let agent = try agent(url, ["CONN_TOKEN": "wrong-token"])
            let paused = try await waitUntil(30) {
                let status = try await home.conn(["agent", "status", "--json"], server: url)
                return ((try? status.json()["outbox"] as? [String: Any])?["pausedBecause"] as? String) != nil
            }
            #expect(paused, "\(agent.events)")
            let text = try await home.conn(["agent", "status"], server: url)
            #expect(text.standardOutput.contains("paused"), "\(text.standardOutput)")
            let states = try await outboxStates()
            // Refused for its token: failed (auth), kept for a resend; the agent's pause sends nothing.
            #expect(states == ["failed"], "\(states)")
            #expect(agent.process.isRunning)
            #expect(await agent.stop() == 0)
        }
    }

    @Test("the link's clock offset is stored: clock-offset --convert uses the agent's fresh one, offline")
    func keepsTheClockOffset() async throws {
        try await ServerProcess.with(["--skew-ms", "5000"]) { url in
            let agent = try agent(url)
            _ = try #require(try await agent.await { ($0["connectionState"] as? [String: Any])?["status"] as? String == "connected" })
            // The offset is this server's own (a closed port's would be none: each server has its
            // own, ClockOffsetCommandTests.offsetPerServer); converting asks no server.
            let converted = try await home.conn(["clock-offset", "--json", "--convert", "2026-11-23T10:00:05.000Z"], server: url)
            #expect(converted.exitCode == 0, "\(converted.standardError)")
            let object = try converted.json()
            #expect(object["method"] as? String == "ws")
            // The truth (5000 ms) within the bound the link stored with it (a loaded machine
            // widens the bound; a fixed 100 ms failed once at 116).
            #expect(abs((object["offsetMs"] as? Double ?? 0) - 5000) <= (object["uncertaintyMs"] as? Double ?? 0) + 1, "\(object)")
            #expect((object["offsetAgeSeconds"] as? Double ?? 99) < 15)
            // The device time is the back end's less the offset, to the millisecond.
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            let device = try #require((object["deviceTime"] as? String).flatMap { formatter.date(from: $0) }, "\(object)")
            let expected = try #require(formatter.date(from: "2026-11-23T10:00:05.000Z")).addingTimeInterval(-(object["offsetMs"] as? Double ?? 0) / 1000)
            #expect(abs(device.timeIntervalSince(expected)) < 0.0015, "\(object)")
            // agent status says which offset is stored, and how old it is.
            let status = try await home.conn(["agent", "status", "--json"], server: url)
            #expect(try await JSONSchemaCheck.violations(of: status.standardOutput, schema: "agent-status").isEmpty)
            let clock = try #require(try status.json()["clockOffset"] as? [String: Any], "\(status.standardOutput)")
            #expect(clock["method"] as? String == "ws" && abs((clock["offsetMs"] as? Double ?? 0) - 5000) <= (clock["uncertaintyMs"] as? Double ?? 0) + 1, "\(clock)")
            let text = try await home.conn(["agent", "status"], server: url)
            let clockLine = text.standardOutput.split(separator: "\n").first { $0.hasPrefix("clock offset: +") }
            #expect(clockLine?.contains(" ms (ws), measured ") == true, "\(text.standardOutput)")
            #expect(await agent.stop() == 0)
        }
    }
}

/// What conn-server has stored, read from its inbox.
enum ServerInbox {
    /// (Asked again while the server's injected faults answer 5xx.)
    static func subjects(_ server: URL) async throws -> [String] {
        for _ in 0..<50 {
            let outcome = try await ConnProcess.run("/usr/bin/env", ["curl", "-sf", server.appendingPathComponent("inbox").absoluteString],
                                                    environment: ProcessInfo.processInfo.environment)
            if outcome.exitCode == 0, let object = try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any] {
                return (object["inbox"] as? [[String: Any]] ?? []).compactMap { $0["subject"] as? String }
            }
        }
        throw Unanswered(server: server)
    }

    struct Unanswered: Error { let server: URL }
}
