import ConnTestSupport
import Foundation
import Testing

/// `--timeout` is one deadline for the whole exchange (connect, TLS, headers, body), on every
/// path that talks HTTP or opens a WebSocket: a server that sends its head at once and then one
/// byte a second, or trickles the head itself, is cut off at the deadline, not kept on by each
/// byte (each byte used to renew a per-read timeout: `inbox fetch` ran until killed at 30 s).
@Suite("a trickling server against --timeout")
struct TricklingServerTests {
    static let timeout = 2
    /// Room for a loaded machine (a whole suite starting processes at once took 10.5 s; a full
    /// local run on 2 cores, 23.4 s) between the deadline and the process's exit, short of the
    /// kill at 30 s. It still proves the deadline: the trickled answers take 100 s and more, and
    /// a hung conn is killed at 30 s (137); the exit (75) and the message naming the 2 s deadline
    /// say which deadline ended it.
    static let grace: Duration = .seconds(26)

    /// Every resource answers 200 with its head at once and a 1,000-byte body a byte a second.
    static let bodyTrickle: [BadServer.Route] = [
        BadServer.Route(path: "*", status: 200, headers: [["Content-Type", "application/json"]],
                        body: String(repeating: " ", count: 1000), trickle: .init(bytes: 1, intervalMs: 1000, afterHead: true)),
    ]
    /// Every resource (the WebSocket upgrade too) trickles its head a byte a second.
    static let headTrickle: [BadServer.Route] = [
        BadServer.Route(path: "*", status: 101, headers: [["Upgrade", "websocket"], ["Connection", "Upgrade"]],
                        body: "", trickle: .init(bytes: 1, intervalMs: 1000)),
    ]

    /// Runs conn against `server`, killed at 30 s so that a hang fails the test instead of holding the run.
    /// Its time is the one time(1) measured, waiting for it outside this process: the test's own
    /// clock also counts how late its task resumed (a CI run saw 30.35 s for a conn that had
    /// ended at its deadline, the test process's threads busy elsewhere).
    func conn(_ arguments: [String], server: BadServer, home: TemporaryDirectory, input: String = "") async throws -> (ProcessOutcome, Duration) {
        let environment = home.environment.merging(["CONN_SERVER": server.url.absoluteString, "CONN_TIMEOUT": "\(Self.timeout)s"]) { $1 }
        let timing = home.path + "/elapsed-\(UUID().uuidString)"
        let start = ContinuousClock.now
        let outcome = try await ConnProcess.run("/usr/bin/time", ["-o", timing, "-f", "%e", "/usr/bin/timeout", "-s", "KILL", "30", ConnProcess.connPath] + arguments,
                                                environment: environment, input: input)
        let measured = (try? String(contentsOfFile: timing, encoding: .utf8))?.split(separator: "\n").last.flatMap { Double($0) }
        return (outcome, measured.map { .milliseconds(Int64($0 * 1000)) } ?? start.duration(to: .now))
    }

    func expectCutOff(_ arguments: [String], server: BadServer, input: String = "", exitCodes: Set<Int32> = [75]) async throws {
        let home = try TemporaryDirectory()
        let (outcome, elapsed) = try await conn(arguments, server: server, home: home, input: input)
        let what = arguments.joined(separator: " ")
        #expect(exitCodes.contains(outcome.exitCode), "\(what): exit \(outcome.exitCode) \(outcome.standardError)")
        #expect(elapsed < .seconds(Self.timeout) + Self.grace, "\(what) ran \(elapsed) against --timeout \(Self.timeout)s")
        #expect(outcome.standardError.contains("within \(Self.timeout)s"), "\(what): \(outcome.standardError)")
    }

    @Test("a body trickled after the head: inbox fetch, send, outbox flush, login, clock-offset http-date and json end at the deadline; probe says the answer came and its body did not end")
    func bodyTrickled() async throws {
        try await BadServer.with(Self.bodyTrickle) { server in
            try await expectCutOff(["inbox", "fetch"], server: server)
            let (probed, probeTook) = try await conn(["probe"], server: server, home: try TemporaryDirectory())
            #expect(probed.exitCode == 69 && probed.standardOutput.contains("answered 200, but its body did not end within \(Self.timeout)s"),
                    "\(probed.standardOutput) \(probed.standardError)")
            #expect(probeTook < .seconds(Self.timeout) + Self.grace, "probe ran \(probeTook)")
            try await expectCutOff(["login", "--email", "ann@example.com", "--password-stdin"], server: server, input: "pw\n")
            try await expectCutOff(["clock-offset", "--method", "http-date", "--samples", "1"], server: server)
            try await expectCutOff(["clock-offset", "--method", "json", "--samples", "1"], server: server)

            // send queues the message it could not deliver (0, with the reason); the flush that
            // tries again is cut off the same way, and the message is still there afterwards.
            let home = try TemporaryDirectory()
            let (sent, sendTook) = try await conn(["send", "--to", "ann@example.com", "--subject", "s", "--text", "t"], server: server, home: home)
            #expect(sent.exitCode == 0 && sent.standardError.contains("queued") && sent.standardError.contains("within \(Self.timeout)s"),
                    "\(sent.exitCode) \(sent.standardError)")
            #expect(sendTook < .seconds(Self.timeout) + Self.grace, "send ran \(sendTook)")
            let (flushed, flushTook) = try await conn(["outbox", "flush"], server: server, home: home)
            #expect(flushed.exitCode == 75 && flushed.standardError.contains("within \(Self.timeout)s"), "\(flushed.standardError)")
            #expect(flushTook < .seconds(Self.timeout) + Self.grace, "outbox flush ran \(flushTook)")
            let (listed, _) = try await conn(["outbox", "list", "--json", "--all"], server: server, home: home)
            #expect(listed.standardOutput.contains(#""state":"pending""#) && listed.standardOutput.contains(#""lastErrorCode":"timeout""#),
                    "the message was lost: \(listed.standardOutput)")
        }
    }

    @Test("a head trickled a byte a second: inbox fetch and the WebSocket upgrade (clock-offset ws, the watch link) end at the deadline")
    func headTrickled() async throws {
        try await BadServer.with(Self.headTrickle) { server in
            try await expectCutOff(["inbox", "fetch"], server: server)
            try await expectCutOff(["clock-offset", "--method", "ws", "--samples", "1"], server: server)

            // The link: disconnected (not initializing) once its first attempt hit the deadline.
            // (watch's --timeout is this same network deadline, so the watch is ended from outside.)
            let home = try TemporaryDirectory()
            let environment = home.environment.merging(["CONN_SERVER": server.url.absoluteString, "CONN_TIMEOUT": "\(Self.timeout)s"]) { $1 }
            let watched = try await ConnProcess.run("/usr/bin/timeout", ["-s", "TERM", "\(Self.timeout + 13)", ConnProcess.connPath,
                                                                         "watch", "--json", "--no-internet"], environment: environment)
            let linkGaveUp = watched.standardOutput.split(separator: "\n").contains {
                $0.contains(#""type":"connectionState""#) && $0.contains(#""isInitializing":false"#)
            }
            #expect(linkGaveUp, "the link's first attempt did not end: \(watched.standardOutput) \(watched.standardError)")
        }
    }
}
