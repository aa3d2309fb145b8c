@testable import ConnProbe
import ConnTestSupport
import ConnCore
import Foundation
import Testing

/// `conn probe --count`: rounds summed up as ping and httping do.
@Suite("conn probe --count")
struct ProbeCountTests {
    let home: TemporaryDirectory

    init() throws { home = try TemporaryDirectory() }

    func probe(_ arguments: [String]) async throws -> ProcessOutcome {
        try await ConnProcess.run(ConnProcess.connPath, ["probe"] + arguments, environment: home.environment)
    }

    @Test("the spread: nearest-rank median and p95 within 0.1 %, exact min, max, mean and population deviation; none without a sample")
    func spread() throws {
        let spread = try #require(ProbeStatistics.Spread((1...100).map(Double.init)))
        #expect(spread.minMs == 1 && spread.maxMs == 100 && spread.avgMs == 50.5)
        #expect(abs(spread.medianMs - 50) <= 0.05 && abs(spread.p95Ms - 95) <= 0.095, "\(spread)")
        #expect(abs((ProbeStatistics.Spread([2, 4, 4, 4, 5, 5, 7, 9])?.stddevMs ?? 0) - 2) < 1e-9)
        #expect(ProbeStatistics.Spread([7])?.p95Ms == 7 && ProbeStatistics.Spread([0.25, 0.25])?.medianMs == 0.25)
        #expect(ProbeStatistics.Spread([Double]()) == nil)
    }

    @Test("jitter is the mean absolute difference of consecutive times (mtr's Javg), not the deviation: 10, 20, 10, 20 → 10 (stddev 5); steady times → 0; one time → 0")
    func jitter() {
        var alternating = TimeSamples()
        for ms in [10.0, 20, 10, 20] { alternating.add(ms) }
        #expect(alternating.jitterMs == 10 && alternating.deviationMs == 5)
        // The same values in another order: the deviation is the same, the jitter is not.
        var climbing = TimeSamples()
        for ms in [10.0, 10, 20, 20] { climbing.add(ms) }
        #expect(abs(climbing.jitterMs - 10.0 / 3) < 1e-9 && climbing.deviationMs == 5)
        var steady = TimeSamples()
        for _ in 0..<5 { steady.add(7) }
        #expect(steady.jitterMs == 0)
        var one = TimeSamples()
        one.add(3)
        #expect(one.jitterMs == 0)
    }

    @Test("a million attempts keep memory bounded: the samples' footprint after 10⁶ is what it was after 10³")
    func boundedMemory() {
        var statistics = ProbeStatistics(target: "t")
        func attempt(_ ms: Double) -> ProbeResult {
            ProbeResult(target: "t", kind: "url", url: "http://x/", host: "x", port: 80, reachable: true, verdict: "reachable", explanation: "",
                        rungs: [ProbeRung(name: "tcp", ok: true, ms: ms / 3, detail: ""), ProbeRung(name: "http", ok: true, ms: ms / 2, detail: "")],
                        totalMs: ms)
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<1_000 { statistics.add(attempt(Double.random(in: 0.05...3_000, using: &generator))) }
        let early = statistics.footprintBytes
        for _ in 0..<999_000 { statistics.add(attempt(Double.random(in: 0.05...3_000, using: &generator))) }
        #expect(statistics.sent == 1_000_000 && statistics.footprintBytes == early, "\(early) → \(statistics.footprintBytes) bytes")
        #expect(early < 1_000_000, "\(early) bytes")
        let spread = try! #require(statistics.spread)
        #expect(abs(spread.medianMs - 1_500) < 30 && abs(spread.p95Ms - 2_850) < 30, "\(spread)")  // uniform: 50 % and 95 % of 3 s
    }

    @Test("times up to 16 s never grow the histogram (growing costs ~2,000 instructions a counter); a longer one still counts")
    func histogramCoversProbeTimes() {
        var samples = TimeSamples()
        let empty = samples.footprintBytes
        for ms in [0.05, 2.5, 150, 4_000, 16_000] { samples.add(ms) }
        #expect(samples.footprintBytes == empty, "\(empty) → \(samples.footprintBytes) bytes")
        samples.add(120_000)
        #expect(samples.count == 6 && samples.percentileMs(100) == 120_000 && samples.footprintBytes > empty)
    }

    @Test("a live server and a closed port, 3 rounds: 0 % and 100 % loss with the verdicts counted; 69 for the closed one; every attempt with --all-attempts; the schema holds")
    func liveAndClosed() async throws {
        try await ServerProcess.with { url in
            let closed = "127.0.0.1:\(try HTTPPorts.closed())"
            let outcome = try await probe(["--json", "--count", "3", "--interval", "50ms", "--all-attempts", "\(url.absoluteString)/health", closed])
            #expect(outcome.exitCode == 69, "\(outcome.standardError)")
            let problems = try await JSONSchemaCheck.violations(of: outcome.standardOutput, schema: "probe")
            #expect(problems.isEmpty, "\(problems)")
            let report = try outcome.json()
            let statistics = try #require(report["statistics"] as? [[String: Any]])
            #expect(statistics.count == 2)
            let live = statistics[0], dead = statistics[1]
            #expect(live["sent"] as? Int == 3 && live["ok"] as? Int == 3 && live["lossPercent"] as? Double == 0, "\(live)")
            let p95 = try #require(live["p95Ms"] as? Double), median = try #require(live["medianMs"] as? Double)
            #expect(median > 0 && p95 >= median, "\(live)")
            #expect((live["rungs"] as? [String: Any])?["tcp"] != nil && (live["verdicts"] as? [String: Int]) == ["reachable": 3], "\(live)")
            #expect(dead["ok"] as? Int == 0 && dead["lossPercent"] as? Double == 100 && dead["medianMs"] is NSNull, "\(dead)")
            #expect((dead["verdicts"] as? [String: Int]) == ["refused": 3], "\(dead)")
            let rounds = try #require(report["allAttempts"] as? [[[String: Any]]])
            #expect(rounds.count == 3 && rounds.allSatisfy { $0.count == 2 } && report["attempts"] as? Int == 3)

            // Text: a line per attempt as it comes, then ping's closing block.
            let text = try await probe(["--count", "2", "--interval", "50ms", "\(url.absoluteString)/health"])
            #expect(text.exitCode == 0, "\(text.standardError)")
            #expect(text.standardOutput.contains("(round 1)") && text.standardOutput.contains("(round 2)"), "\(text.standardOutput)")
            #expect(text.standardOutput.contains("2 sent, 2 ok, 0% loss; verdicts: reachable 2"), "\(text.standardOutput)")
            #expect(text.standardOutput.contains("min/avg/median/p95/max/stddev/jitter = "), "\(text.standardOutput)")
        }
    }

    @Test("a server that fails half its answers: the loss and both verdicts are counted, the sums agree")
    func flakyServer() async throws {
        try await ServerProcess.with(["--fail-rate", "0.5"]) { url in
            let outcome = try await probe(["--json", "--count", "30", "--interval", "20ms", "\(url.absoluteString)/health"])
            let statistics = try #require(try outcome.json()["statistics"] as? [[String: Any]])
            let target = try #require(statistics.first)
            let ok = try #require(target["ok"] as? Int), verdicts = try #require(target["verdicts"] as? [String: Int])
            #expect(target["sent"] as? Int == 30 && verdicts.values.reduce(0, +) == 30 && verdicts["reachable", default: 0] == ok, "\(target)")
            // 30 tries at one half: all alike has a chance of 2 in 10⁹.
            #expect(ok > 0 && ok < 30 && verdicts["httpStatus", default: 0] == 30 - ok, "\(target)")
            let loss = try #require(target["lossPercent"] as? Double)
            #expect(abs(loss - Double(30 - ok) * 100 / 30) < 0.001, "\(target)")
        }
    }

    @Test("--count 0 runs until Ctrl-C, then prints the summary so far and exits by the state (0)")
    func untilInterrupted() async throws {
        try await ServerProcess.with { url in
            let process = try SpawnedProcess(ConnProcess.connPath, ["probe", "--count", "0", "--interval", "100ms", "\(url.absoluteString)/health"],
                                             environment: home.environment, output: .pipe)
            let output = OutputReader(try #require(process.standardOutput))
            await output.wait { $0.components(separatedBy: "(round").count >= 3 }
            process.interrupt()
            let text = await output.toEnd()
            await process.exited()
            #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(process.terminationReason) \(process.terminationStatus)")
            #expect(text.contains("--- \(url.absoluteString)/health ---") && text.contains(" sent, ") && text.contains("0% loss"), "\(text)")
        }
    }

    @Test("20 rounds against a server that waits 20 ms and fails a fifth: the loss is in the binomial's band and equals the failures, p95 ≥ 20 ms")
    func slowFlakyServer() async throws {
        try await ServerProcess.with(["--latency-ms", "20", "--fail-rate", "0.2"]) { url in
            let outcome = try await probe(["--json", "--count", "20", "--interval", "0", "\(url.absoluteString)/health"])
            let target = try #require((try outcome.json()["statistics"] as? [[String: Any]])?.first, "\(outcome.standardOutput)")
            let ok = try #require(target["ok"] as? Int), loss = try #require(target["lossPercent"] as? Double)
            // 13 or more failures of 20 at p = 0.2 happens about once in 10⁵ runs.
            #expect(target["sent"] as? Int == 20 && (0...60).contains(loss) && abs(loss - Double(20 - ok) * 5) < 0.001, "\(target)")
            #expect(ok > 0)
            #expect(try #require(target["p95Ms"] as? Double) >= 20 && (target["minMs"] as? Double ?? 0) >= 20, "\(target)")
        }
    }

    @Test("the REPL's stats: every probe of the session summed up per target (single looks and --count rounds), in text and JSON; stats clear; a stray word is 64")
    func replStats() async throws {
        try await ServerProcess.with { url in
            let closed = "127.0.0.1:\(try HTTPPorts.closed())"
            let health = "\(url.absoluteString)/health"
            let lines = ["probe \(health)", "probe --count 3 --interval 0 \(health) \(closed)", "stats", "stats --json", "stats clear", "stats --json", "stats now"]
            let outcome = try await home.conn(["repl", "--no-link"], server: url, input: lines.joined(separator: "\n") + "\n")
            #expect(outcome.exitCode == 64, "the last line's status: \(outcome.standardError)")
            #expect(outcome.standardOutput.contains("--- \(health) ---\n4 sent, 4 ok, 0% loss; verdicts: reachable 4"), "\(outcome.standardOutput)")
            #expect(outcome.standardOutput.contains("--- \(closed) ---\n3 sent, 0 ok, 100% loss; verdicts: refused 3"), "\(outcome.standardOutput)")
            #expect(outcome.standardError.contains("stats takes no argument but `clear`"), "\(outcome.standardError)")
            let objects = outcome.standardOutput.split(separator: "\n").filter { $0.hasPrefix("{") }.map(String.init)
            #expect(objects.count == 2, "\(outcome.standardOutput)")
            for object in objects {
                let problems = try await JSONSchemaCheck.violations(of: object, schema: "repl-stats")
                #expect(problems.isEmpty, "\(problems)")
            }
            let before = try #require(objects.first.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
            let targets = try #require(before["statistics"] as? [[String: Any]])
            #expect(targets.map { $0["target"] as? String } == [health, closed] && targets.first?["sent"] as? Int == 4, "\(targets)")
            #expect(objects.last?.contains(#""statistics":[]"#) == true, "\(objects)")
        }
    }

    @Test("bad usage is 64: a negative count, --count with --wait, --all-attempts alone, --count with the Prometheus format")
    func badUsage() async throws {
        for arguments in [["--count", "-1"], ["--count", "2", "--wait", "5s"], ["--all-attempts"], ["--count", "2", "--format", "prometheus"],
                          ["--count", "2", "--interval", "5ms"], ["--flood"]] {
            let refused = try await probe(arguments + ["127.0.0.1:1"])
            #expect(refused.exitCode == 64, "\(arguments): \(refused.exitCode) \(refused.standardError)")
        }
        let flood = try await probe(["--count", "2", "--interval", "5ms", "127.0.0.1:1"])
        #expect(flood.standardError.contains("--flood"), "\(flood.standardError)")
        // With --flood, and with 0 (one round after another), it runs.
        for arguments in [["--count", "3", "--interval", "5ms", "--flood"], ["--count", "3", "--interval", "0"]] {
            let ran = try await probe(arguments + ["--json", "127.0.0.1:1"])
            let sent = (try ran.json()["statistics"] as? [[String: Any]])?.first?["sent"] as? Int
            #expect(ran.exitCode == 69 && sent == 3, "\(arguments): \(ran.standardError)")
        }
    }
}
