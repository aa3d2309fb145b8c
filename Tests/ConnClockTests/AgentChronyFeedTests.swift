import ConnCore
import ConnTestSupport
import Foundation
import Testing

/// `conn agent` with `chronySocket:`: the back end's clock fed to chronyd for as long as the agent
/// runs — from the live link's ping/pong while it is connected, else measured each interval —
/// through whatever happens to chronyd.
@Suite("conn agent feeds chronyd")
struct AgentChronyFeedTests {
    let home: TemporaryDirectory

    init() throws { home = try TemporaryDirectory() }

    /// A datagram socket that prints each `struct sock_sample` it receives as a JSON line: a
    /// stand-in for chronyd that shows exactly what was sent (a stale file of a killed one is
    /// replaced, as chronyd replaces it).
    static let receiver = """
        import json, os, socket, struct, sys
        path = sys.argv[1]
        if os.path.exists(path): os.unlink(path)
        s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        s.bind(path)
        print(json.dumps({"listening": path}), flush=True)
        while True:
            data = s.recv(256)
            sec, usec, offset, pulse, leap, pad, magic = struct.unpack("qqdiiii", data)
            print(json.dumps({"sec": sec, "usec": usec, "offset": offset, "magic": magic, "size": len(data)}), flush=True)
        """

    func listen(at path: String) async throws -> JSONLinesProcess {
        let process = try JSONLinesProcess("/usr/bin/env", ["python3", "-c", Self.receiver, path], environment: ProcessInfo.processInfo.environment)
        _ = try #require(try await process.await { $0["listening"] != nil }, "the receiver did not listen: \(process.errorOutput)")
        return process
    }

    func agent(_ server: URL, _ extra: [String], environment: [String: String]) throws -> JSONLinesProcess {
        try JSONLinesProcess(ConnProcess.connPath, ["agent", "--json", "--no-internet", "--interval", "1s", "--metrics-listen", "0"] + extra,
                             environment: home.environment.merging(["CONN_SERVER": server.absoluteString]) { $1 }.merging(environment) { $1 })
    }

    /// The agent's `chrony` log lines (their detail), in order.
    func chronyNews(_ agent: JSONLinesProcess) -> [String] {
        agent.events.filter { $0["type"] as? String == "chrony" }.compactMap { $0["detail"] as? String }
    }

    func metric(_ series: String, of agent: JSONLinesProcess) async throws -> Double? {
        guard let match = agent.errorOutput.firstMatch(of: /metrics: http:\/\/127\.0\.0\.1:(\d+)\/metrics/) else { return nil }
        let body = try await ConnProcess.run("/usr/bin/env", ["curl", "-s", "http://127.0.0.1:\(match.1)/metrics"],
                                             environment: ProcessInfo.processInfo.environment).standardOutput
        return body.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    @Test("without a link the agent measures each interval and sends chronyd's sample (the back end 1.5 s ahead: +1.5 s, magic, 40 bytes); the socket gone is said once and never ends the agent; sending again is said; the metrics count by outcome")
    func measuresAndGoesOn() async throws {
        let server = try await BackgroundServer.start(["--skew-ms", "1500"])
        let socket = home.path + "/conn.sock"
        var receiver = try await listen(at: socket)
        let agent = try agent(server.url, ["--no-link"], environment: ["CONN_CHRONY_SOCKET": socket])
        let sending = try #require(try await agent.await { $0["type"] as? String == "chrony" }, "\(agent.errorOutput)")
        #expect((sending["detail"] as? String)?.hasPrefix("sending estimates to chronyd") == true && (sending["detail"] as? String)?.hasSuffix(", json)") == true,
                "\(sending)")
        let sample = try #require(try await receiver.await { $0["offset"] != nil }, "nothing received")
        #expect(sample["magic"] as? Int == 0x534f_434b && sample["size"] as? Int == 40, "\(sample)")
        // A sample sent has a bound within chronyMaxUncertainty (100 ms): the truth, 1.5 s, is that near.
        #expect(abs((sample["offset"] as? Double ?? 0) - 1.5) <= 0.100, "\(sample)")
        #expect(abs(Double(sample["sec"] as? Int ?? 0) - Date().timeIntervalSince1970) < 30, "the sample's time is now: \(sample)")
        let offset = try await poll(for: 10, every: .milliseconds(100)) { try await metric("conn_chrony_offset_seconds", of: agent) }
        #expect(offset.map { abs($0 - 1.5) <= 0.100 } == true, "\(String(describing: offset))")

        // The socket's listener gone: said once, counted, and the agent goes on.
        _ = await receiver.stop()
        let unavailable = try await poll(for: 30, every: .milliseconds(100)) { () -> Double? in
            guard let count = try await metric(#"conn_chrony_samples_total{outcome="unavailable"}"#, of: agent), count >= 2 else { return nil }
            return count
        }
        #expect(unavailable != nil, "no estimate met a closed socket: \(chronyNews(agent))")
        #expect(chronyNews(agent).filter { $0 == "chronyd is not listening at \(socket); trying again at each estimate" }.count == 1, "\(chronyNews(agent))")
        #expect(agent.process.isRunning)

        receiver = try await listen(at: socket)
        let again = await poll(for: 30, every: .milliseconds(100)) { () -> [String]? in
            let news = chronyNews(agent)
            return news.filter { $0.hasPrefix("sending estimates") }.count >= 2 ? news : nil
        }
        #expect(again?.count == 3, "sending, not listening, sending: \(String(describing: again))")
        #expect(try await receiver.await { $0["offset"] != nil } != nil)
        let sent = try await metric(#"conn_chrony_samples_total{outcome="sent"}"#, of: agent) ?? 0
        #expect(sent >= 2, "\(sent)")
        #expect(await agent.stop() == 0, "\(agent.errorOutput)")
        _ = await receiver.stop()
        let problems = try await JSONSchemaCheck.violations(of: agent.standardOutput, schema: "agent-event")
        #expect(problems.isEmpty, "\(problems)")
        await server.stop()
    }

    @Test("a bound wider than chronyMaxUncertainty: withheld, said once, counted, nothing sent; a chronySocket that is not a socket: 78 at start; a bad chronyMaxUncertainty: 78 naming it; config get and show name both keys")
    func withheldAndRefused() async throws {
        let server = try await BackgroundServer.start(["--skew-ms", "1500"])
        let socket = home.path + "/conn.sock"
        let receiver = try await listen(at: socket)
        let agent = try agent(server.url, ["--no-link"], environment: ["CONN_CHRONY_SOCKET": socket, "CONN_CHRONY_MAX_UNCERTAINTY": "0.000001"])
        let withheld = try await poll(for: 60, every: .milliseconds(100)) { () -> Double? in
            guard let count = try await metric(#"conn_chrony_samples_total{outcome="withheld"}"#, of: agent), count >= 2 else { return nil }
            return count
        }
        #expect(withheld != nil, "\(agent.errorOutput)")
        let news = chronyNews(agent)
        #expect(news.count == 1 && news[0].hasPrefix("estimates withheld from chronyd: the bound ±") && news[0].hasSuffix("is wider than chronyMaxUncertainty 1e-06 ms"),
                "\(news)")
        #expect(try await metric(#"conn_chrony_samples_total{outcome="sent"}"#, of: agent) == 0)
        #expect(try await metric("conn_chrony_offset_seconds", of: agent) == nil, "no offset was sent")
        #expect(receiver.events.filter { $0["offset"] != nil }.isEmpty, "\(receiver.events)")
        #expect(await agent.stop() == 0, "\(agent.errorOutput)")
        _ = await receiver.stop()

        let file = try home.write("not-a-socket", "")
        let refused = try await home.conn(["agent", "--no-internet"], server: server.url, env: ["CONN_CHRONY_SOCKET": file])
        #expect(refused.exitCode == 78 && refused.standardError.contains("chronySocket \(file) is not a socket"), "\(refused.exitCode) \(refused.standardError)")
        let bad = try await home.conn(["config", "show"], server: server.url, env: ["CONN_CHRONY_MAX_UNCERTAINTY": "-5"])
        #expect(bad.exitCode == 78 && bad.standardError.contains("chronyMaxUncertainty '-5' (from environment variable CONN_CHRONY_MAX_UNCERTAINTY)"), "\(bad.standardError)")
        let get = try await home.conn(["config", "get", "chronySocket"], server: server.url, env: ["CONN_CHRONY_SOCKET": socket])
        #expect(get.exitCode == 0 && get.standardOutput == socket + "\n", "\(get.standardOutput) \(get.standardError)")
        let show = try await home.conn(["config", "show", "--json"], server: server.url, env: ["CONN_CHRONY_SOCKET": socket])
        let shown = try show.json()
        #expect(shown["chronySocket"] as? String == socket && shown["chronyMaxUncertaintyMs"] as? Double == 100, "\(show.standardOutput)")
        let problems = try await JSONSchemaCheck.violations(of: show.standardOutput, schema: "config-show")
        #expect(problems.isEmpty, "\(problems)")
        await server.stop()
    }

    @Test("with the live link and a real chronyd: the link's ping/pong estimates come first, chronyd finds this machine 1.5 s slow within 10 ms; chronyd stopped: said once, the agent goes on; chronyd back: sending again",
          .enabled(if: ChronyDaemon.available, "needs chronyd (Debian's chrony, scripts/install-deps) and root"))
    func linkFeedsChronyd() async throws {
        var daemon = try await ChronyDaemon.start(in: home.path + "/chrony")
        let server = try await BackgroundServer.start(["--skew-ms", "1500"])
        let agent = try agent(server.url, [], environment: ["CONN_CHRONY_SOCKET": daemon.socket])
        let sending = try #require(try await agent.await { $0["type"] as? String == "chrony" }, "\(agent.errorOutput)")
        #expect((sending["detail"] as? String)?.hasSuffix(", ws)") == true, "the link's estimate first: \(sending)")
        #expect(try await daemon.slow(by: 1.5) != nil, "chronyc tracking never said 1.5 s slow")

        await daemon.stop()
        let gone = await poll(for: 30, every: .milliseconds(100)) { chronyNews(agent).first { $0.contains("is not listening at") } }
        #expect(gone != nil, "\(chronyNews(agent))")
        #expect(agent.process.isRunning)
        daemon = try await daemon.restarted()
        defer { daemon.process.terminate() }
        let again = await poll(for: 30, every: .milliseconds(100)) { () -> [String]? in
            let news = chronyNews(agent)
            return news.filter { $0.hasPrefix("sending estimates") }.count >= 2 ? news : nil
        }
        #expect(again?.count == 3, "\(String(describing: again))")
        #expect(await agent.stop() == 0, "\(agent.errorOutput)")
        await server.stop()
    }
}
