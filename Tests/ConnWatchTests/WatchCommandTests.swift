import ConnCore
import ConnTestSupport
import Foundation
import Testing

/// `conn watch` as a process: the real binary, the real conn-server, real namespaces.
@Suite("conn watch end to end")
struct WatchCommandTests {
    let home: TemporaryDirectory

    init() throws { home = try TemporaryDirectory() }

    func environment(_ server: URL) -> [String: String] {
        home.environment.merging(["CONN_SERVER": server.absoluteString]) { $1 }
    }

    static func change(to state: String) -> ([String: Any]) -> Bool {
        { $0["type"] as? String == "change" && $0["state"] as? String == state }
    }

    @Test("baseline first; a killed server is noticed through its socket closing; restarted, online again with the downtime; SIGTERM ends with a last line and 143")
    func serverDiesAndReturns() async throws {
        let server = try await BackgroundServer.start(["--port", String(try HTTPPorts.outsideAutomaticRange())])
        let watcher = try WatchProcess(ConnProcess.connPath, ["watch", "--json", "--no-internet", "--interval", "60s"], environment: environment(server.url))
        let baseline = try #require(try await watcher.await { $0["type"] as? String == "baseline" })
        #expect(baseline["state"] as? String == "online")
        // Connected: in the baseline when the link came first, else in a connectionState line.
        _ = try #require(try await watcher.await { ($0["connectionState"] as? [String: Any])?["status"] as? String == "connected" })
        let killedAt = Date()
        server.signal(SIGKILL)
        // With a 60 s interval only the socket closing can make this come within 15 s (the
        // bound is room for a loaded machine, not a speed goal: bench/ measures that).
        let down = try #require(try await watcher.await(15, Self.change(to: "serverUnreachable")), "port \(server.port): \(watcher.events)")
        // Refused, or — when the look caught the server dying between accepting and answering —
        // a connection closed without an answer.
        #expect(["refused", "unexpectedBody"].contains(down["reason"] as? String ?? ""), "\(down)")
        // The state's facts, in the keys probe and the REPL use too.
        #expect(down["failingTarget"] as? String == "\(server.url.absoluteString)/health")
        let since = try #require(JSONOutput.date(down["since"] as? String), "\(down)")
        #expect(since >= killedAt.addingTimeInterval(-0.01) && since <= Date())
        #expect((down["interface"] as? [String: Any])?["kind"] as? String == "loopback")
        #expect(down["ipv4"] as? Bool == false && down["ipv6"] is NSNull)
        #expect((down["connectionState"] as? [String: Any])?["status"] as? String == "disconnected")
        await server.stop()
        let restarted = try await BackgroundServer.start(["--port", String(server.port)])
        let up = try #require(try await watcher.await(15, Self.change(to: "online")))
        #expect((up["downtimeMs"] as? Double ?? 0) > 0)
        #expect(await watcher.stop() == 143)
        #expect(watcher.events.last?["type"] as? String == "stopped" && watcher.events.last?["stopReason"] as? String == "SIGTERM")
        // Changes only: one baseline, one change down, one change up.
        #expect(watcher.events.filter { $0["type"] as? String == "change" }.count == 2)
        #expect(watcher.events.filter { $0["type"] as? String == "baseline" }.count == 1)
        await restarted.stop()
    }

    @Test("the first line is the baseline with the verdict, even when the link connects before the first look ends (a server answering /health after 1.5 s): the link's changes follow it in order; --until connected ends after them")
    func baselineIsTheFirstLine() async throws {
        try await ServerProcess.with(["--latency-ms", "1500"]) { url in
            let watcher = try WatchProcess(ConnProcess.connPath, ["watch", "--json", "--no-internet", "--interval", "60s"], environment: environment(url))
            let baseline = try #require(try await watcher.await(30) { $0["type"] as? String == "baseline" }, "\(watcher.events)")
            #expect(watcher.events.first?["type"] as? String == "baseline", "\(watcher.events)")
            #expect(baseline["state"] as? String == "online")
            // The link connected during the slow look: its changes come after the baseline, which
            // carries the link's first state.
            let connected = try #require(try await watcher.await { ($0["connectionState"] as? [String: Any])?["status"] as? String == "connected" })
            #expect(baseline["connectionState"] is [String: Any], "\(baseline)")
            #expect(["baseline", "connectionState"].contains(connected["type"] as? String ?? ""), "\(connected)")
            #expect(await watcher.stop() == 143)
            let until = try await home.conn(["watch", "--json", "--no-internet", "--until", "connected"], server: url)
            let lines = until.standardOutput.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            #expect(until.exitCode == 0 && lines.first?["type"] as? String == "baseline" && lines.first?["state"] as? String == "online",
                    "\(until.exitCode) \(until.standardOutput) \(until.standardError)")
        }
    }

    @Test("Ctrl-C on a terminal: the stopped line starts a line of its own, not after the ^C the terminal echoed; 130",
          .enabled(if: TerminalSession.available, "needs tmux (scripts/install-deps)"))
    func ctrlCOnATerminal() async throws {
        try await ServerProcess.with { url in
            let session = try home.terminal(["watch", "--no-internet", "--no-link", "--interval", "60s"], server: url)
            try await session.waitFor(20, "the baseline") { $0.contains("online") }
            try session.press("C-c")
            let (status, screen) = try await session.finished(within: 20)
            #expect(status == 130, "\(screen)")
            let stopped = screen.split(separator: "\n").first { $0.contains("stopped (SIGINT)") }
            #expect(stopped != nil && stopped?.contains("^C") == false, "\(screen)")
        }
    }

    @Test("the link's clock offset in text is said as clock-offset says it, with its bound: in step on the same host, ahead with a skewed server")
    func linkOffsetWording() async throws {
        for (skew, expected) in [("0", ", in step: within the bound)"), ("1500", ", back end ahead)")] {
            try await ServerProcess.with(["--skew-ms", skew]) { url in
                let watcher = try JSONLinesProcess(ConnProcess.connPath, ["watch", "--no-internet", "--interval", "60s"], environment: environment(url))
                let said = await poll(for: 30, every: .milliseconds(100)) { () -> String? in
                    watcher.standardOutput.split(separator: "\n").first { $0.contains("link: connected (back-end clock ") }.map(String.init)
                }
                #expect(said?.hasSuffix(expected) == true, "skew \(skew): \(String(describing: said)) \(watcher.standardOutput)")
                if skew != "0" {
                    // The server's 1500 ms within the bound said.
                    let match = said?.firstMatch(of: /clock \+(\d+\.\d) ms ±(\d+\.\d) ms/)
                    let (offset, bound) = (match.flatMap { Double($0.1) } ?? 0, match.flatMap { Double($0.2) } ?? -1)
                    #expect(abs(offset - 1500) <= bound + 0.1, "\(String(describing: said))")  // + 0.1: both printed to a tenth
                }
                _ = await watcher.stop()
            }
        }
    }

    @Test("--exec gets the event in CONN_EVENT_* and as JSON on stdin, never in the command string")
    func execHook() async throws {
        let server = try await BackgroundServer.start(["--port", String(try HTTPPorts.outsideAutomaticRange())])
        let record = home.path + "/hook.txt"
        let hook = "{ printf '%s %s %s\\n' \"$CONN_EVENT_FROM\" \"$CONN_EVENT_TO\" \"$CONN_EVENT_REASON\"; cat; } >> '\(record)'"
        let watcher = try WatchProcess(ConnProcess.connPath, ["watch", "--json", "--no-internet", "--no-link", "--interval", "300ms", "--exec", hook],
                                  environment: environment(server.url))
        _ = try #require(try await watcher.await { $0["type"] as? String == "baseline" })
        server.signal(SIGKILL)
        // Two failed looks confirm it; under load each may run into the check's 5 s cap.
        _ = try #require(try await watcher.await(20, Self.change(to: "serverUnreachable")))
        var text = ""
        for _ in 0..<50 where !text.contains("\"type\":\"change\"") {
            try await Task.sleep(for: .milliseconds(50))
            text = (try? String(contentsOfFile: record, encoding: .utf8)) ?? ""
        }
        #expect(text.hasPrefix("online serverUnreachable refused\n"))
        #expect(text.contains("\"state\":\"serverUnreachable\"") && text.contains("\"type\":\"change\""))
        _ = await watcher.stop()
        await server.stop()
    }

    @Test("--until online waits for a server that starts later (0); an unreached state with --timeout is 75")
    func until() async throws {
        let portReservation = try HTTPPorts.reserved()
        let port = portReservation.port
        let url = URL(string: "http://127.0.0.1:\(port)")!
        // Bounds for a loaded run (a CI saw no "online" within 20 s of the server's start): the
        // exit status, not the time, is what is checked.
        let watcher = try WatchProcess(ConnProcess.connPath, ["watch", "--until", "online", "--no-internet", "--no-link", "--interval", "200ms", "--timeout", "90s", "--json"],
                                       environment: environment(url))
        // The server starts only once the baseline says it is not there.
        let baseline = try #require(try await watcher.await { $0["type"] as? String == "baseline" })
        #expect(baseline["state"] as? String == "serverUnreachable")
        portReservation.release()
        let server = try await BackgroundServer.start(["--port", String(port)])
        _ = try #require(try await watcher.await(80, Self.change(to: "online")))
        await watcher.process.exited()
        #expect(watcher.process.terminationStatus == 0)
        await server.stop()

        let never = try await ConnProcess.run(ConnProcess.connPath, ["watch", "--until", "offline", "--no-internet", "--no-link", "--timeout", "1s", "--json"],
                                              environment: environment(url))
        #expect(never.exitCode == 75)
        #expect(never.standardOutput.split(separator: "\n").last?.contains("\"stopReason\":\"timeout\"") == true)
    }

    @Test("--flush-outbox: messages queued while the server was away are delivered once it is reachable, through injected 5xx, each stored once")
    func flushOutbox() async throws {
        let portReservation = try HTTPPorts.reserved()
        let port = portReservation.port
        let url = URL(string: "http://127.0.0.1:\(port)")!
        for number in 1...5 {
            let queued = try await ConnProcess.run(ConnProcess.connPath, ["send", "--to", "ann@conn.example", "--subject", "queued \(number)", "--text", "hello"],
                                                   environment: environment(url))
            #expect(queued.exitCode == 0 && queued.standardError.contains("queued"), "\(queued.standardError)")
        }
        let watcher = try WatchProcess(ConnProcess.connPath, ["watch", "--json", "--no-internet", "--no-link", "--interval", "500ms", "--flush-outbox"],
                                       environment: environment(url))
        let baseline = try #require(try await watcher.await { $0["type"] as? String == "baseline" })
        #expect(baseline["state"] as? String == "serverUnreachable")
        // Nothing can be delivered yet, so no outbox line.
        #expect(!watcher.events.contains { $0["type"] as? String == "outbox" })
        // Half of all requests fail with 500 or 503 + Retry-After: the watch must come back to them.
        portReservation.release()
        let server = try await BackgroundServer.start(["--port", String(port), "--fail-rate", "0.5"])
        _ = try #require(try await watcher.await(60) { ($0["outbox"] as? [String: Any])?["waiting"] as? Int == 0 })
        // Delivery starts only while online; by the time its line is printed, the next look may
        // have met one of the injected 5xx, so the line's own state is not asserted.
        #expect(watcher.events.contains { $0["type"] as? String == "change" && $0["state"] as? String == "online" })
        let passes = watcher.events.compactMap { $0["outbox"] as? [String: Any] }
        #expect(passes.reduce(0) { $0 + ($1["sent"] as? Int ?? 0) } == 5)
        #expect(await watcher.stop() == 143)
        let subjects = try await server.inbox().compactMap { $0["subject"] as? String }.filter { $0.hasPrefix("queued ") }
        #expect(subjects.sorted() == (1...5).map { "queued \($0)" })
        let list = try await ConnProcess.run(ConnProcess.connPath, ["outbox", "list", "--json", "--all"], environment: environment(url))
        let messages = try #require((try JSONSerialization.jsonObject(with: Data(list.standardOutput.utf8)) as? [String: Any])?["messages"] as? [[String: Any]])
        let states = messages.compactMap { $0["state"] as? String }
        #expect(states == Array(repeating: "sent", count: 5))
        await server.stop()
    }

    /// A signal unwinds the command instead of ending the process where it stands: the outbox
    /// worker's in-flight request is cancelled and recorded (a retry with the same key), so the
    /// message is pending again and its attempt finished, not left `sending` with a lease and an
    /// attempt that reads as if its deliverer died.
    @Test("SIGTERM while a delivery is in flight: 143 after the attempt is recorded; the message is pending again")
    func signalDuringDelivery() async throws {
        let closed = URL(string: "http://127.0.0.1:\(try HTTPPorts.closed())")!
        let queued = try await ConnProcess.run(ConnProcess.connPath, ["send", "--to", "ann@conn.example", "--subject", "held", "--text", "hello", "--json"],
                                               environment: environment(closed))
        #expect(queued.exitCode == 0, "\(queued.standardError)")
        // The POST gets a status line, then one byte a second: it stays in flight.
        let routes: [BadServer.Route] = [
            .answer("GET", "/health", status: 204, body: ""),
            BadServer.Route(method: "POST", path: "/messages", status: 200, headers: [["Content-Type", "application/json"]],
                            body: String(repeating: " ", count: 120), trickle: .init(bytes: 1, intervalMs: 1000)),
        ]
        try await BadServer.with(routes) { server in
            // Queued for the closed port: moved to this server, whose watch then delivers it.
            let moved = try await ConnProcess.run(ConnProcess.connPath, ["outbox", "retarget", "--json"] + [try queued.json()["id"] as? String ?? ""],
                                                  environment: environment(server.url))
            #expect(moved.exitCode == 0, "\(moved.standardError)")
            let watcher = try WatchProcess(ConnProcess.connPath, ["watch", "--json", "--no-internet", "--no-link", "--interval", "500ms", "--flush-outbox"],
                                           environment: environment(server.url))
            var posted = false
            for _ in 0..<400 where !posted {
                try await Task.sleep(for: .milliseconds(50))
                posted = try server.requests().contains { $0.method == "POST" && $0.path == "/messages" }
            }
            #expect(posted, "the watch never tried the message")
            try await Task.sleep(for: .milliseconds(300))
            #expect(await watcher.stop() == 143)
            #expect(watcher.events.last?["type"] as? String == "stopped", "\(watcher.events)")
        }
        let list = try await ConnProcess.run(ConnProcess.connPath, ["outbox", "list", "--json", "--all"], environment: environment(closed))
        let message = try #require(((try JSONSerialization.jsonObject(with: Data(list.standardOutput.utf8)) as? [String: Any])?["messages"] as? [[String: Any]])?.first)
        #expect(message["state"] as? String == "pending", "\(message)")
        let id = try #require(message["id"] as? String)
        let shown = try await ConnProcess.run(ConnProcess.connPath, ["outbox", "show", id, "--json"], environment: environment(closed))
        let log = try #require((try JSONSerialization.jsonObject(with: Data(shown.standardOutput.utf8)) as? [String: Any])?["attemptLog"] as? [[String: Any]])
        let outcomes = log.compactMap { $0["outcome"] as? String }
        #expect(outcomes.count >= 2 && !outcomes.contains("started"), "\(log)")
    }

    @Test("--flush-outbox without a server is a configuration error (78)")
    func flushOutboxNeedsAServer() async throws {
        let outcome = try await ConnProcess.run(ConnProcess.connPath, ["watch", "--flush-outbox", "--internet-url", "http://127.0.0.1:9/x=204"], environment: home.environment)
        #expect(outcome.exitCode == 78)
        #expect(outcome.standardError.contains("no server is configured"), "\(outcome.standardError)")
    }

    @Test("bad options are named", arguments: [
        (["--interval", "soon"], "the value 'soon' is invalid for '--interval <duration>'"),
        (["--interval", "0"], "the value '0' is invalid for '--interval <duration>'"),
        (["--grace=-1s"], "the value '-1s' is invalid for '--grace <duration>'"),
        (["--until", "maybe"], "--until 'maybe' is not a state"),
    ])
    func badOptions(arguments: [String], message: String) async throws {
        let outcome = try await ConnProcess.run(ConnProcess.connPath, ["watch"] + arguments, environment: home.environment)
        #expect(outcome.exitCode == 64)
        #expect(outcome.standardError.contains(message), "\(outcome.standardError)")
    }

    /// Two namespaces joined by a veth pair: conn in `client` (10.77.0.1 on `interface`),
    /// conn-server in the other (10.77.0.2).
    struct VethPair {
        let client: NetworkNamespace
        let serverSide: NetworkNamespace
        let interface: String
        let server: BackgroundServer

        init() async throws {
            client = try await NetworkNamespace.make()
            serverSide = try await NetworkNamespace.make()
            interface = "vc" + client.name.suffix(8)
            try await client.veth(interface, address: "10.77.0.1/24", to: serverSide, peer: "vs" + client.name.suffix(8), peerAddress: "10.77.0.2/24")
            server = try await BackgroundServer.start(["--host", "10.77.0.2"], wrapper: [NetworkNamespace.ipPath, "netns", "exec", serverSide.name])
        }

        func watch(_ options: [String], environment: [String: String]) throws -> WatchProcess {
            try WatchCommandTests.watch(in: client, server: server, options, environment: environment)
        }
    }

    /// `conn watch --json --no-internet` in `client`, watching `server`.
    static func watch(in client: NetworkNamespace, server: BackgroundServer, _ options: [String], environment: [String: String]) throws -> WatchProcess {
        let (program, arguments) = client.wrap([ConnProcess.connPath, "watch", "--json", "--no-internet"] + options)
        return try WatchProcess(program, arguments, environment: environment.merging(["CONN_SERVER": server.url.absoluteString]) { $1 })
    }

    @Test("in a namespace: link down → offline (noInterface) within milliseconds of the event, the link disconnected with it; link up → online, the link back", .enabled(if: NetworkNamespace.available, "needs root and ip netns"))
    func linkDownAndUp() async throws {
        let pair = try await VethPair()
        let watcher = try pair.watch(["--interval", "60s", "--timeout", "2s"], environment: home.environment)
        _ = try #require(try await watcher.await { $0["type"] as? String == "baseline" && $0["state"] as? String == "online" })
        _ = try #require(try await watcher.await { ($0["connectionState"] as? [String: Any])?["status"] as? String == "connected" })
        try await pair.client.exec(["ip", "link", "set", pair.interface, "down"])
        let down = try #require(try await watcher.await(5, Self.change(to: "offline")))
        #expect(down["reason"] as? String == "noInterface")
        // Offline, the link is down at once, its socket noticed or not; the offset is kept.
        let link = try #require(down["connectionState"] as? [String: Any])
        #expect(link["status"] as? String == "disconnected" && link["isInitializing"] as? Bool == false && link["backEndTimeOffsetMs"] is Int, "\(down)")
        try await pair.client.exec(["ip", "link", "set", pair.interface, "up"])
        _ = try #require(try await watcher.await(10, Self.change(to: "online")))
        let states = watcher.events.filter { $0["type"] as? String == "connectionState" }.compactMap { ($0["connectionState"] as? [String: Any])?["status"] as? String }
        _ = try #require(try await watcher.await { _ in
            watcher.events.filter { $0["type"] as? String == "connectionState" }.last.flatMap { ($0["connectionState"] as? [String: Any])?["status"] as? String } == "connected"
        }, "the link comes back with the network: \(states)")
        // The link's burst (its addresses and routes go with it) is one change each way.
        let changes = watcher.events.filter { $0["type"] as? String == "change" }.compactMap { $0["state"] as? String }
        #expect(changes == ["offline", "online"], "\(watcher.events)")
        #expect(await watcher.stop() == 143)
        await pair.server.stop()
    }

    @Test("in a namespace: the route removed → offline (noRoute); the address removed → offline (noAddress); each back → online", .enabled(if: NetworkNamespace.available, "needs root and ip netns"))
    func routeAndAddressRemoved() async throws {
        let pair = try await VethPair()
        // A 60 s interval: only the kernel's notification can make these quick.
        let watcher = try pair.watch(["--interval", "60s", "--timeout", "2s", "--no-link"], environment: home.environment)
        _ = try #require(try await watcher.await { $0["type"] as? String == "baseline" && $0["state"] as? String == "online" })
        try await pair.client.exec(["ip", "route", "del", "10.77.0.0/24", "dev", pair.interface])
        let noRoute = try #require(try await watcher.await(5, Self.change(to: "offline")))
        #expect(noRoute["reason"] as? String == "noRoute")
        try await pair.client.exec(["ip", "route", "add", "10.77.0.0/24", "dev", pair.interface])
        _ = try #require(try await watcher.await(5, Self.change(to: "online")))

        try await pair.client.exec(["ip", "addr", "del", "10.77.0.1/24", "dev", pair.interface])
        let noAddress = try #require(try await watcher.await { Self.change(to: "offline")($0) && $0["reason"] as? String == "noAddress" })
        #expect(noAddress["from"] as? String == "online")
        try await pair.client.exec(["ip", "addr", "add", "10.77.0.1/24", "dev", pair.interface])
        _ = try #require(try await watcher.await { Self.change(to: "online")($0) && ($0["at"] as? String ?? "") > (noAddress["at"] as? String ?? "") })
        #expect(watcher.events.filter { $0["type"] as? String == "change" }.count == 4)
        #expect(await watcher.stop() == 143)
        await pair.server.stop()
    }

    @Test("in a namespace: a link flap shorter than --grace gives no event; a longer outage does", .enabled(if: NetworkNamespace.available, "needs root and ip netns"))
    func flapWithinGrace() async throws {
        let pair = try await VethPair()
        // A grace far longer than the flap: on a loaded machine starting `ip` for the second
        // command alone has taken over a second (seen: a 300 ms flap lasting 1.6 s).
        let watcher = try pair.watch(["--interval", "60s", "--timeout", "2s", "--no-link", "--grace", "5s"], environment: home.environment)
        _ = try #require(try await watcher.await { $0["type"] as? String == "baseline" && $0["state"] as? String == "online" })
        // Down and up in one shell: the flap lasts 300 ms and a spawn, not two spawns and a
        // test's wake-up.
        try await pair.client.exec(["sh", "-c", "ip link set \(pair.interface) down; sleep 0.3; ip link set \(pair.interface) up"])
        // Then a real outage. Its change is the marker that the flap's moment has passed: had the
        // flap been reported, its two changes would come before it.
        try await pair.client.exec(["ip", "link", "set", pair.interface, "down"])
        let down = try #require(try await watcher.await(15, Self.change(to: "offline")))
        let changes = watcher.events.filter { $0["type"] as? String == "change" }.compactMap { $0["state"] as? String }
        #expect(changes == ["offline"], "the flap was reported: \(watcher.events)")
        #expect(down["reason"] as? String == "noInterface")
        #expect(await watcher.stop() == 143)
        await pair.server.stop()
    }
    @Test("in a namespace: the default route moves to another interface while the server still answers → one path event naming it, the state still online", .enabled(if: NetworkNamespace.available, "needs root and ip netns"))
    func defaultRouteMoves() async throws {
        let ways = try await TwoWaysOut()
        func watch(_ options: [String], environment: [String: String]) throws -> WatchProcess {
            try Self.watch(in: ways.client, server: ways.server, options, environment: environment)
        }
        // A 60 s interval: only the kernel's route notification can make this quick.
        let watcher = try watch(["--interval", "60s", "--timeout", "5s", "--no-link"], environment: home.environment)
        let baseline = try #require(try await watcher.await { $0["type"] as? String == "baseline" && $0["state"] as? String == "online" }, "\(watcher.events)")
        #expect((baseline["interface"] as? [String: Any])?["name"] as? String == ways.first, "\(baseline)")
        try await ways.moveDefaultRoute()
        let moved = try #require(try await watcher.await(30) { $0["type"] as? String == "path" }, "\(watcher.events)")
        #expect(moved["state"] as? String == "online" && moved["from"] is NSNull, "\(moved)")
        #expect((moved["interface"] as? [String: Any])?["name"] as? String == ways.second, "\(moved)")
        #expect(moved["ipv6"] as? Bool == false, "no IPv6 route at all: false, not null: \(moved)")
        try await Task.sleep(for: .milliseconds(300))
        #expect(watcher.events.filter { $0["type"] as? String == "path" }.count == 1, "\(watcher.events)")
        #expect(!watcher.events.contains { $0["type"] as? String == "change" }, "\(watcher.events)")
        #expect(await watcher.stop() == 143)
        await ways.server.stop()
    }

    @Test("in a namespace: a carrier flapping 100 times in about a second gives a bounded number of events and ends online", .enabled(if: NetworkNamespace.available, "needs root and ip netns"))
    func flappingCarrier() async throws {
        let pair = try await VethPair()
        let watcher = try pair.watch(["--interval", "60s", "--timeout", "2s", "--no-link"], environment: home.environment)
        _ = try #require(try await watcher.await { $0["type"] as? String == "baseline" && $0["state"] as? String == "online" })
        let peer = "vs" + pair.client.name.suffix(8)
        // `ip netns exec` execs conn: the process is conn's. Its private memory, in kB.
        func anonymousKB() -> Int? { ProcessStatus.kilobytes("RssAnon", of: watcher.process.processIdentifier) }
        let before = try #require(anonymousKB())
        let clock = ContinuousClock()
        let start = clock.now
        // One child process for the hundred changes (a blocking call per change would hold one
        // of the test run's few threads for a second).
        let (program, arguments) = pair.serverSide.wrap(["bash", "-c", "for i in $(seq 50); do ip link set \(peer) down; ip link set \(peer) up; done"])
        let flapped = try await ConnProcess.run(program, arguments, environment: ProcessInfo.processInfo.environment)
        #expect(flapped.exitCode == 0, "\(flapped.standardError)")
        let flapping = start.duration(to: clock.now)
        // Settled: the last state reported is online again (the link ended up).
        func lastState() -> String? { watcher.events.last { ["baseline", "change"].contains($0["type"] as? String ?? "") }?["state"] as? String }
        _ = try await watcher.await(10) { _ in lastState() == "online" }
        let changes = watcher.events.filter { $0["type"] as? String == "change" }
        // NetlinkMonitor reports a burst at least every 50 ms, and a new look supersedes the one
        // in flight: at most one change each way per burst.
        let bound = 2 * Int(flapping / .milliseconds(50)) + 2
        #expect(changes.count <= bound, "\(changes.count) changes in \(flapping) (bound \(bound))")
        let last = try #require(watcher.events.last { ["baseline", "change"].contains($0["type"] as? String ?? "") })
        #expect(last["state"] as? String == "online", "\(watcher.events)")
        #expect(watcher.process.isRunning)
        let after = try #require(anonymousKB())
        #expect(after - before < 2_048, "private memory grew from \(before) to \(after) kB over 100 changes")
        #expect(await watcher.stop() == 143)
        await pair.server.stop()
    }

    @Test("in a namespace: the carrier lost (the other end down, the interface still up with its address) → offline (noCarrier) at once, not after the timeout; back → online", .enabled(if: NetworkNamespace.available, "needs root and ip netns"))
    func carrierLost() async throws {
        let pair = try await VethPair()
        // A 5 s timeout: a look that waited for TCP would report 5 s late.
        let watcher = try pair.watch(["--interval", "60s", "--timeout", "5s", "--no-link"], environment: home.environment)
        _ = try #require(try await watcher.await { $0["type"] as? String == "baseline" && $0["state"] as? String == "online" })
        try await pair.serverSide.exec(["ip", "link", "set", "vs" + pair.client.name.suffix(8), "down"])
        let down = try #require(try await watcher.await(10, Self.change(to: "offline")), "\(watcher.events)")
        // The reason is the proof that no deadline was waited for: a look that waited for TCP
        // reads `timeout`, one that waited for ARP `noRoute`. (The wall clock is not: starting
        // `ip` on a loaded CI machine took over 3 s; bench/cases/watch-path.sh measures it.)
        #expect(down["reason"] as? String == "noCarrier", "\(down)")
        try await pair.serverSide.exec(["ip", "link", "set", "vs" + pair.client.name.suffix(8), "up"])
        _ = try #require(try await watcher.await(10, Self.change(to: "online")), "\(watcher.events)")
        #expect(await watcher.stop() == 143)
        await pair.server.stop()
    }
}
