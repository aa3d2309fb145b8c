@testable import ConnProbe
import ConnTestSupport
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

    @Test("the spread: nearest-rank median and p95, population deviation; none without a sample")
    func spread() throws {
        let spread = try #require(ProbeStatistics.Spread((1...100).map(Double.init)))
        #expect(spread.minMs == 1 && spread.maxMs == 100 && spread.medianMs == 50 && spread.p95Ms == 95 && spread.avgMs == 50.5)
        #expect(ProbeStatistics.Spread([2, 4, 4, 4, 5, 5, 7, 9])?.stddevMs == 2)
        #expect(ProbeStatistics.Spread([7])?.p95Ms == 7)
        #expect(ProbeStatistics.Spread([]) == nil)
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
            #expect(text.standardOutput.contains("min/avg/median/p95/max/stddev = "), "\(text.standardOutput)")
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
            let process = Process()
            process.executableURL = URL(fileURLWithPath: ConnProcess.connPath)
            process.arguments = ["probe", "--count", "0", "--interval", "100ms", "\(url.absoluteString)/health"]
            process.environment = home.environment
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            var received = Data()
            while String(decoding: received, as: UTF8.self).components(separatedBy: "(round").count < 3 {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                received.append(chunk)
            }
            process.interrupt()
            received.append(output.fileHandleForReading.readDataToEndOfFile())
            await process.exited()
            let text = String(decoding: received, as: UTF8.self)
            #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(process.terminationReason) \(process.terminationStatus)")
            #expect(text.contains("--- \(url.absoluteString)/health ---") && text.contains(" sent, ") && text.contains("0% loss"), "\(text)")
        }
    }

    @Test("bad usage is 64: a negative count, --count with --wait, --all-attempts alone, --count with the Prometheus format")
    func badUsage() async throws {
        for arguments in [["--count", "-1"], ["--count", "2", "--wait", "5s"], ["--all-attempts"], ["--count", "2", "--format", "prometheus"],
                          ["--count", "2", "--interval", "0"]] {
            let refused = try await probe(arguments + ["127.0.0.1:1"])
            #expect(refused.exitCode == 64, "\(arguments): \(refused.exitCode) \(refused.standardError)")
        }
    }
}
