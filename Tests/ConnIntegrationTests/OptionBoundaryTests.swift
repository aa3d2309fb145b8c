import ConnTestSupport
import Foundation
import Testing

/// Numbers from the command line and the environment are range-checked before use: out-of-range
/// ports and durations are usage (64) or configuration (78) errors naming the value, never a trap
/// (a signal exit). Random and boundary values go through the real binary.
@Suite("option values at and past their bounds")
struct OptionBoundaryTests {
    func conn(_ arguments: [String], env: [String: String] = [:]) async throws -> ProcessOutcome {
        let home = try TemporaryDirectory()
        return try await ConnProcess.run(ConnProcess.connPath, arguments, environment: home.environment.merging(env) { $1 })
    }

    /// The commands that connect, each with arguments that make it connect at once.
    static let connecting: [[String]] = [
        ["probe"], ["inbox", "fetch"], ["send", "--to", "a@b.cc", "--subject", "s", "--text", "t"], ["outbox", "flush"],
        ["watch", "--no-internet", "--until", "online", "--timeout", "1s"], ["clock-offset", "--samples", "1"],
    ]

    @Test("a server port out of range (0, 65536, 99999, -1) is refused before anything connects or is queued",
          arguments: ["http://127.0.0.1:99999", "http://127.0.0.1:65536", "http://127.0.0.1:0", "http://[::1]:70000"])
    func serverPorts(server: String) async throws {
        for command in Self.connecting {
            let flag = try await conn(command + ["--server", server])
            #expect(flag.exitCode == 64, "\(command) --server \(server): exit \(flag.exitCode) \(flag.standardError)")
            #expect(flag.standardError.contains("has a port (\(server.split(separator: ":").last!)) out of range (1-65535)"), "\(flag.standardError)")
            let env = try await conn(command, env: ["CONN_SERVER": server])
            #expect(env.exitCode == 78, "\(command) CONN_SERVER=\(server): exit \(env.exitCode) \(env.standardError)")
        }
        // Nothing was queued by the refused sends.
        let home = try TemporaryDirectory()
        let environment = home.environment.merging(["CONN_SERVER": server]) { $1 }
        _ = try await ConnProcess.run(ConnProcess.connPath, ["send", "--to", "a@b.cc", "--subject", "s", "--text", "t"], environment: environment)
        #expect(!FileManager.default.fileExists(atPath: home.path + "/data/conn/conn.sqlite"))
    }

    @Test("a resource or --url with a port out of range is refused too")
    func otherURLPorts() async throws {
        let resource = try await conn(["inbox", "fetch"], env: ["CONN_SERVER": "http://127.0.0.1:1", "CONN_RESOURCES_INBOX": "http://127.0.0.1:99999/inbox"])
        #expect(resource.exitCode == 78, "\(resource.standardError)")
        let url = try await conn(["clock-offset", "--method", "http-date", "--url", "http://127.0.0.1:99999/"])
        #expect(url.exitCode == 64 && url.standardError.contains("out of range"), "\(url.standardError)")
        let probe = try await conn(["probe", "http://127.0.0.1:99999/", "127.0.0.1:65536"])
        #expect(probe.exitCode == 64, "\(probe.standardError)")
        let internet = try await conn(["probe", "--internet-url", "http://127.0.0.1:99999/"])
        #expect(internet.exitCode == 64, "\(internet.standardError)")
    }

    static let boundaryDurations = [
        "1e18", "1e30", "1e308", "1e309", "9223372036854775807", "9223372036854775808ms", "18446744073709551616s", "3650d", "3651d",
        "-1", "-0", "0", "nan", "inf", "-inf", "1e-30", "", " ", "ms", "5x", "0x10", "1_000", "٣", "5 s",
    ]

    /// Values that are not durations: a sign, not a number, a unit alone, blanks, digit groups,
    /// other scripts' digits, hexadecimal.
    static let malformedDurations: Set<String> = ["-1", "nan", "inf", "-inf", "5x", "ms", " ", "1_000", "٣", "5 s", "0x10"]

    @Test("durations at and past their bounds, and random ones, through every duration option and variable: never a signal exit")
    func durations() async throws {
        var generator = SystemRandomNumberGenerator()
        let random = (0..<12).map { _ -> String in
            let magnitude = Double.random(in: -30...40, using: &generator)
            let unit = ["", "ms", "s", "m", "h", "d"].randomElement(using: &generator)!
            return String(format: "%g", (Bool.random(using: &generator) ? 1 : -1) * pow(10, magnitude)) + unit
        }
        let closed = "http://127.0.0.1:\(try HTTPPorts.closed())"
        for value in Self.boundaryDurations + random {
            let runs: [(args: [String], env: [String: String])] = [
                (["config", "show", "--timeout", value], [:]),
                (["config", "show"], ["CONN_TIMEOUT": value]),
                (["config", "show"], ["CONN_OUTBOX_EXPIRY": value]),
                (["probe", "--timeout", value, closed], [:]),
                (["watch", "--no-internet", "--interval", value, "--grace", value, "--until", "offline", "--timeout", "1s", closed], [:]),
                (["outbox", "flush", "--wait", value, "--server", closed], [:]),
                (["clock-offset", "--interval", value, "--samples", "1", "--server", closed], [:]),
            ]
            for run in runs {
                let outcome = try await conn(run.args, env: run.env)
                #expect(outcome.exitCode < 128, "\(run.args) \(run.env) with '\(value)': exit \(outcome.exitCode) \(outcome.standardError)")
                // Past the bound, or not a duration at all: refused, 64 from an option, 78 from a variable.
                if DurationBounds.tooLarge(value) || Self.malformedDurations.contains(value) {
                    #expect(outcome.exitCode == (run.env.isEmpty ? 64 : 78), "\(run.args) \(run.env) accepted '\(value)': \(outcome.exitCode) \(outcome.standardError)")
                }
            }
        }
    }
}

/// Which test values are past the 3650-day bound (so must be refused).
enum DurationBounds {
    static func tooLarge(_ text: String) -> Bool {
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600), ("d", 86400)]
        var number = text
        var scale = 1.0
        for (suffix, seconds) in units where text.hasSuffix(suffix) {
            number = String(text.dropLast(suffix.count))
            scale = seconds
            break
        }
        guard let value = Double(number), value.isFinite else { return false }
        return value * scale > 3650 * 86400
    }
}
