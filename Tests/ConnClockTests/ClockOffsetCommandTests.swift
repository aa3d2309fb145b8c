import ConnCore
import ConnTestSupport
import Foundation
import Testing

/// `conn clock-offset` against conn-server with a known skew: the truth must lie within the
/// reported bound, for every method.
@Suite("conn clock-offset end to end")
struct ClockOffsetCommandTests {
    let home: TemporaryDirectory

    init() throws { home = try TemporaryDirectory() }

    func measure(_ arguments: [String], server: URL? = nil) async throws -> (ProcessOutcome, [String: Any]) {
        var env = home.environment
        if let server { env["CONN_SERVER"] = server.absoluteString }
        let outcome = try await ConnProcess.run(ConnProcess.connPath, ["clock-offset", "--json"] + arguments, environment: env)
        let json = (try? JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any]) ?? [:]
        return (outcome, json)
    }

    /// The truth inside the bound, and the bound no wider than `cap` ms: a bound of ±10⁹ ms holds
    /// every truth and says nothing. The caps are loose for a loaded machine (bench/cases/clock.sh
    /// measures json at ≤ 0.3 ms on loopback); the http-date method reads whole seconds.
    func expectWithinBound(_ json: [String: Any], truth: Double, _ comment: String, cap: Double = 50) {
        let offset = json["offsetMs"] as? Double ?? .nan
        let bound = json["uncertaintyMs"] as? Double ?? .nan
        #expect(abs(offset - truth) <= bound, "\(comment): measured \(offset) ± \(bound), truth \(truth)")
        #expect(bound <= cap, "\(comment): the bound ±\(bound) ms is wider than \(cap) ms")
    }

    @Test("json method: every skew within the bound", arguments: [0, 250, -250, -999, 1234, 86_400_000])
    func jsonMethod(_ skew: Int) async throws {
        try await ServerProcess.with(["--skew-ms", String(skew)]) { url in
            let (outcome, json) = try await measure(["--method", "json"], server: url)
            #expect(outcome.exitCode == 0, "\(outcome.standardError)")
            // How tight the bound is depends on the machine's load: bench/cases/clock.sh measures it.
            expectWithinBound(json, truth: Double(skew), "json")
            #expect(json["method"] as? String == "json")
        }
    }

    @Test("ws method within the bound", arguments: [-999, 1234])
    func webSocketMethod(_ skew: Int) async throws {
        try await ServerProcess.with(["--skew-ms", String(skew)]) { url in
            let (outcome, json) = try await measure(["--method", "ws"], server: url)
            #expect(outcome.exitCode == 0, "\(outcome.standardError)")
            expectWithinBound(json, truth: Double(skew), "ws")
        }
    }

    @Test("a server with whole milliseconds (an older one): the bound counts their half millisecond, and holds")
    func wholeMillisecondServer() async throws {
        let pong = #"{"type":"pong","t1":{t1},"t2":{now},"t3":{now}}"#
        try await BadServer.with([BadServer.Route(path: "/ws", websocket: .init(onPing: [pong], holdMs: 8000))]) { server in
            let (outcome, json) = try await measure(["--method", "ws", "--samples", "3"], server: server.url)
            #expect(outcome.exitCode == 0, "\(outcome.standardError)")
            expectWithinBound(json, truth: 0, "whole ms")
            #expect((json["uncertaintyMs"] as? Double ?? 0) >= 0.5, "\(json)")
        }
        // conn-server's microseconds: no half millisecond of rounding in the bound.
        try await ServerProcess.with { url in
            let (_, json) = try await measure(["--method", "ws"], server: url)
            let bound = json["uncertaintyMs"] as? Double ?? .nan
            let rtt = json["rttMs"] as? Double ?? .nan
            #expect(bound <= rtt / 2 + 0.01, "\(json)")
        }
    }

    @Test("http-date method within the bound", arguments: [1234, -250])
    func httpDateMethod(_ skew: Int) async throws {
        try await ServerProcess.with(["--skew-ms", String(skew)]) { url in
            let (outcome, json) = try await measure(["--method", "http-date", "--samples", "10"], server: url)
            #expect(outcome.exitCode == 0, "\(outcome.standardError)")
            expectWithinBound(json, truth: Double(skew), "http-date", cap: 1000)
        }
    }

    @Test("--max-uncertainty: a bound wider than it is 75, saying both, the measurement still on stdout; one it holds is 0; 0 or less is 64")
    func maxUncertainty() async throws {
        // 40 ms each way: the bound is about 40 ms whatever the machine does.
        try await ServerProcess.with(["--skew-ms", "1234", "--latency-ms", "40"]) { url in
            let (wide, json) = try await measure(["--method", "json", "--samples", "2", "--max-uncertainty", "5"], server: url)
            #expect(wide.exitCode == 75 && wide.standardError.contains("wider than --max-uncertainty 5"), "\(wide.exitCode) \(wide.standardError)")
            #expect((json["uncertaintyMs"] as? Double ?? 0) > 5 && json["offsetMs"] is Double, "\(wide.standardOutput)")
            let (held, _) = try await measure(["--method", "json", "--samples", "2", "--max-uncertainty", "5000"], server: url)
            #expect(held.exitCode == 0, "\(held.standardError)")
        }
        let (zero, _) = try await measure(["--max-uncertainty", "0"])
        #expect(zero.exitCode == 64 && zero.standardError.contains("--max-uncertainty must be positive"), "\(zero.standardError)")
    }

    @Test func sntpMethodAgainstATestNTPServer() async throws {
        let ntp = try NTPResponder(skewMS: 1234)
        defer { ntp.close() }
        let (outcome, json) = try await measure(["--method", "sntp", "--ntp-server", "127.0.0.1:\(ntp.port)"])
        #expect(outcome.exitCode == 0, "\(outcome.standardError)")
        expectWithinBound(json, truth: 1234, "sntp")
    }

    @Test("an NTP server that says its clock is not synchronised (leap indicator 3, stratum 16) or sends no transmit time: 65, nothing stored",
          arguments: [NTPResponder.Fault.unsynchronised, .stratum16, .zeroTransmit])
    func sntpUnsynchronisedIsRefused(_ fault: NTPResponder.Fault) async throws {
        let ntp = try NTPResponder(skewMS: 0, fault: fault)
        defer { ntp.close() }
        let (outcome, _) = try await measure(["--method", "sntp", "--ntp-server", "127.0.0.1:\(ntp.port)"])
        #expect(outcome.exitCode == 65, "\(fault): \(outcome.exitCode) \(outcome.standardError)")
        #expect(outcome.standardError.contains("not synchronised") || outcome.standardError.contains("no receive or transmit time"),
                "\(outcome.standardError)")
        let converted = try await ConnProcess.run(ConnProcess.connPath, ["clock-offset", "--convert", "1795380311432"], environment: home.environment)
        #expect(converted.exitCode == 69, "a refused measurement was stored: \(converted.standardOutput)")
    }

    @Test("/time answers that are not measurements: 0 and 0, t3 before t2, more processing time than the round trip: 65",
          arguments: [#"{"t2":0,"t3":0}"#, #"{"t2":{now},"t3":1000}"#, #"{"t2":1000000,"t3":{now}}"#])
    func timeAnswersOutsideTheExchange(_ body: String) async throws {
        try await BadServer.with([.answer("GET", "/time", status: 200, body: body)]) { server in
            let outcome = try await ConnProcess.run(ConnProcess.connPath, ["clock-offset", "--method", "json", "--samples", "2", "--server", server.url.absoluteString],
                                                    environment: home.environment)
            #expect(outcome.exitCode == 65, "\(body): \(outcome.exitCode) \(outcome.standardError)")
            #expect(outcome.standardError.contains("answered t2"), "\(outcome.standardError)")
        }
    }

    @Test("--convert past the dates a back end may send, and --url with a method that does not read it: 64")
    func checkedValues() async throws {
        for arguments in [["--convert", "99999999999999999999999"], ["--convert=-5"], ["--convert", "0001-01-01T00:00:00Z"], ["--convert", "nan"],
                          ["--url", "http://127.0.0.1:1/", "--method", "json"], ["--url", "http://127.0.0.1:1/", "--method", "sntp"],
                          ["--url", "http://127.0.0.1:1/", "--method", "ws"], ["--method", "sntp", "--ntp-server", "[::1"],
                          ["--url", "http://[zz]:80/"]] {
            let outcome = try await ConnProcess.run(ConnProcess.connPath, ["clock-offset"] + arguments, environment: home.environment)
            #expect(outcome.exitCode == 64, "\(arguments): \(outcome.exitCode) \(outcome.standardError)")
        }
    }

    @Test("each server's offset is its own: --convert for A uses A's, for B B's, and a server never measured has none (69)")
    func offsetPerServer() async throws {
        let a = try await BackgroundServer.start(["--skew-ms", "5000"])
        let b = try await BackgroundServer.start(["--skew-ms", "-3000"])
        for server in [a, b] {
            let (measured, _) = try await measure(["--method", "json", "--samples", "3"], server: server.url)
            #expect(measured.exitCode == 0, "\(measured.standardError)")
        }
        // Back-end time 1795380311432 ms: the device time is that minus the server's offset.
        // Within the stored bound (+1 ms for the whole-millisecond device time printed).
        func converted(_ server: URL) async throws -> (ProcessOutcome, Double?, Double) {
            let (outcome, json) = try await measure(["--convert", "1795380311432"], server: server)
            let device = (json["deviceTime"] as? String).flatMap { JSONOutput.date(fromTimestamp: $0) }
            return (outcome, device.map { $0.timeIntervalSince1970 * 1000 }, (json["uncertaintyMs"] as? Double ?? 0) + 1)
        }
        let (forA, deviceA, boundA) = try await converted(a.url)
        #expect(abs((deviceA ?? 0) - (1_795_380_311_432 - 5000)) <= boundA, "\(forA.standardOutput) \(forA.standardError)")
        let (forB, deviceB, boundB) = try await converted(b.url)
        #expect(abs((deviceB ?? 0) - (1_795_380_311_432 + 3000)) <= boundB, "\(forB.standardOutput) \(forB.standardError)")
        #expect(try forB.json()["offsetOf"] as? String == "http://127.0.0.1:\(b.port)")
        let (never, _, _) = try await converted(URL(string: "http://127.0.0.1:\(try HTTPPorts.closed())")!)
        #expect(never.exitCode == 69 && never.standardError.contains("no clock offset has been measured yet for"), "\(never.standardError)")
        await a.stop()
        await b.stop()
    }

    @Test("added latency widens the bound but keeps it honest")
    func latencyKeepsTheBoundHonest() async throws {
        try await ServerProcess.with(["--skew-ms", "1234", "--latency-ms", "40"]) { url in
            let (outcome, json) = try await measure(["--method", "json", "--samples", "4"], server: url)
            #expect(outcome.exitCode == 0, "\(outcome.standardError)")
            expectWithinBound(json, truth: 1234, "json with latency", cap: 250)
        }
    }

    @Test("a cached Date header is detected")
    func cachedDateIsRefused() async throws {
        try await ServerProcess.with(["--frozen-date"]) { url in
            let (outcome, _) = try await measure(["--method", "http-date", "--samples", "6", "--precision", "0.001"], server: url)
            #expect(outcome.exitCode == 65)
            #expect(outcome.standardError.contains("a cache or proxy answers"), "\(outcome.standardError)")
        }
    }

    @Test("--convert uses the stored offset, also when the server is gone")
    func convertRoundTrip() async throws {
        let (none, _) = try await measure(["--convert", "1795380311432"])
        #expect(none.exitCode == 69)
        #expect(none.standardError.contains("no clock offset has been measured yet"))
        let offset = try await ServerProcess.with(["--skew-ms", "1234"]) { url in
            let (outcome, json) = try await measure([], server: url)
            #expect(outcome.exitCode == 0)
            return json["offsetMs"] as? Double ?? .nan
        }
        let (outcome, json) = try await measure(["--convert", "1795380311432"])  // the server is stopped now
        #expect(outcome.exitCode == 0)
        let deviceTime = try #require(json["deviceTime"] as? String)
        let date = try #require(try? Date(deviceTime, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
        // Exact to the millisecond: the back-end time minus the offset rounded to a millisecond.
        #expect(Int64((date.timeIntervalSince1970 * 1000).rounded()) == 1_795_380_311_432 - Int64(offset.rounded()), "\(deviceTime), offset \(offset)")
        // Text: the value alone on stdout (a script takes it with $(…)); the derivation on stderr.
        let text = try await home.conn(["clock-offset", "--convert", "1795380311432"])
        #expect(text.exitCode == 0 && text.standardOutput == deviceTime + "\n", "\(text.standardOutput)")
        #expect(text.standardError.contains("back-end time 2026-11-22T20:45:11.432Z"), "\(text.standardError)")
        let (bad, _) = try await measure(["--convert", "next tuesday"])
        #expect(bad.exitCode == 64)
    }

    /// `auto` measures with the Date header only when the server has no time resource: a refused
    /// token or a server asking to try later is an answer about the server, and /health (which
    /// needs no token) would hide it behind a successful estimate.
    @Test("auto: falls back to the Date header for a missing /time only; 401 is 77, 503 is 75, neither asks /health")
    func autoFallsBackOnlyForAMissingTimeResource() async throws {
        let cases: [(status: Int, exit: Int32, code: String?)] = [(404, 0, nil), (401, 77, "authRefused"), (403, 77, "authRefused"), (503, 75, "serverError")]
        for (status, exit, code) in cases {
            let routes: [BadServer.Route] = [
                .answer("GET", "/time", status: status, body: #"{"error":{"code":"x","message":"no"}}"#),
                .answer("GET", "/health", status: 200, body: "{}"),
            ]
            try await BadServer.with(routes) { server in
                let (outcome, _) = try await measure(["--samples", "2"], server: server.url)
                #expect(outcome.exitCode == exit, "/time \(status): \(outcome.standardError)")
                let asked = try server.requests().map(\.path)
                if let code {
                    #expect(outcome.standardError.contains(#""code":"\#(code)""#), "/time \(status): \(outcome.standardError)")
                    #expect(!asked.contains("/health"), "/time \(status) fell back to /health: \(asked)")
                } else {
                    #expect(asked.contains("/health"), "/time 404 did not fall back: \(asked)")
                }
            }
        }
        // The same through conn-server: a wrong token is 77 with every method that needs one.
        try await ServerProcess.with(["--token", "right-token"]) { url in
            var env = home.environment
            env["CONN_SERVER"] = url.absoluteString
            env["CONN_TOKEN"] = "wrong-token"
            for arguments in [["clock-offset"], ["inbox", "fetch"]] {
                let outcome = try await ConnProcess.run(ConnProcess.connPath, arguments + ["--json"], environment: env)
                #expect(outcome.exitCode == 77, "\(arguments): \(outcome.standardError)")
                #expect(outcome.standardError.contains(#""code":"authRefused""#), "\(arguments): \(outcome.standardError)")
            }
        }
    }

    /// The json method's connection is its own (t1 and t4 read on its event loop), so what a
    /// client library did for it is its job now: a connection the server will not keep is
    /// replaced, and t4 is read at the answer's first bytes, which must still leave the truth
    /// inside the bound when the rest of the answer is slow.
    @Test("json: a server that closes after each answer, and one that trickles it: every sample taken, the truth inside the bound")
    func jsonHostileConnections() async throws {
        let time = #"{"t2":{now},"t3":{now}}"#
        let closing: [BadServer.Route] = [.answer("GET", "/time", status: 200, headers: [["Connection", "close"]], body: time)]
        try await BadServer.with(closing) { server in
            let (outcome, json) = try await measure(["--method", "json", "--samples", "3", "--interval", "10ms"], server: server.url)
            #expect(outcome.exitCode == 0, "\(outcome.standardError)")
            expectWithinBound(json, truth: 0, "closing server")
            #expect(try server.requests().map(\.path) == Array(repeating: "/time", count: 4))
        }
        let trickling = [BadServer.Route(path: "/time", status: 200, headers: [["Content-Type", "application/json"]], body: time,
                                         trickle: .init(bytes: 16, intervalMs: 40))]
        try await BadServer.with(trickling) { server in
            let (outcome, json) = try await measure(["--method", "json", "--samples", "2", "--interval", "10ms"], server: server.url)
            #expect(outcome.exitCode == 0, "\(outcome.standardError)")
            expectWithinBound(json, truth: 0, "trickling server", cap: 1000)
        }
    }

    @Test func unreachableServerIs69() async throws {
        let (outcome, _) = try await measure([], server: URL(string: "http://127.0.0.1:\(try HTTPPorts.closed())")!)
        #expect(outcome.exitCode == 69)
        #expect(outcome.standardError.contains("refused"))
    }
}
