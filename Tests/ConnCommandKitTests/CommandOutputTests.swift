import ArgumentParser
import ConnCommandKit
import ConnConfigCommands
import ConnCore
import ConnTestSupport
import Foundation
import Testing

/// Runs commands in-process with a captured stdout/stderr, as the REPL and tests do.
@Suite("Command output contract")
struct CommandOutputTests {
    struct Run {
        let status: ConnCore.ExitStatus
        let standardOutput: String
        let standardError: String
        func json() throws -> [String: Any] {
            try #require(JSONSerialization.jsonObject(with: Data(standardOutput.utf8)) as? [String: Any])
        }
    }

    func run<Command: ConnCommand>(
        _ type: Command.Type, _ arguments: [String], home: TemporaryDirectory, env: [String: String] = [:],
        terminal: TerminalFacts = .none
    ) async throws -> Run {
        let command = try type.parse(arguments)
        let sink = CapturingOutputSink()
        let code = await CommandRunner.execute(
            command, environment: home.environment.merging(env) { $1 }, sink: sink, terminal: terminal)
        return Run(status: try #require(ExitStatus(rawValue: code)), standardOutput: sink.standardOutput, standardError: sink.standardError)
    }

    @Test func configShowJSONHasStableKeys() async throws {
        let home = try TemporaryDirectory()
        let result = try await run(ConfigShowCommand.self, ["--json", "--server", "http://127.0.0.1:8080"], home: home)
        #expect(result.status == .ok)
        #expect(result.standardError.isEmpty)
        let json = try result.json()
        #expect(Set(json.keys) == Set([
            "schemaVersion", "profile", "configFile", "configFileExists", "server", "resources", "email", "token",
            "tokenSet", "tokenWithheld", "format", "color", "timeoutSeconds", "insecure", "caCert", "outboxExpirySeconds", "outboxKeepSentSeconds", "chronySocket", "chronyMaxUncertaintyMs", "cacheLimitBytes", "sync", "pluginsWithToken", "internetCheck", "databaseFile", "sources", "utc", "signIn", "proxy",
        ]))
        #expect(json["email"] is NSNull && json["token"] is NSNull, "absent values are null, not left out")
        #expect(json["schemaVersion"] as? Int == 1)
        #expect(json["server"] as? String == "http://127.0.0.1:8080")
        let resources = try #require(json["resources"] as? [String: String])
        #expect(resources["inbox"] == "http://127.0.0.1:8080/inbox")
        let sources = try #require(json["sources"] as? [String: [String: String]])
        #expect(sources["server"]?["kind"] == "flag")
        #expect(sources["format"]?["detail"] == "flag --json")
    }

    @Test("the token never appears: text, JSON, verbose logs, from the file or the environment")
    func tokenIsRedacted() async throws {
        let home = try TemporaryDirectory()
        try home.write("config/conn/config.yaml", "server: http://127.0.0.1:1\ntoken: file-secret-123\n")
        for arguments in [[], ["--json"], ["-v"], ["--json", "-v"]] {
            for env in [[:], ["CONN_TOKEN": "env-secret-456"]] {
                let result = try await run(ConfigShowCommand.self, arguments, home: home, env: env)
                #expect(result.status == .ok)
                for secret in ["file-secret-123", "env-secret-456"] {
                    #expect(!result.standardOutput.contains(secret))
                    #expect(!result.standardError.contains(secret))
                }
                if arguments.contains("--json") {
                    let json = try result.json()
                    #expect(json["token"] as? String == "<redacted>")
                    #expect(json["tokenSet"] as? Bool == true)
                } else {
                    #expect(result.standardOutput.contains("(set, hidden)"))
                }
            }
        }
    }

    @Test func configErrorIsOneJSONObjectOnStderrInJSONMode() async throws {
        let home = try TemporaryDirectory()
        try home.write("config/conn/config.yaml", "timeout: [1, 2]\n")
        let result = try await run(ConfigShowCommand.self, ["--json"], home: home)
        #expect(result.status == .configuration)
        #expect(result.standardOutput.isEmpty)
        let object = try #require(JSONSerialization.jsonObject(with: Data(result.standardError.utf8)) as? [String: Any])
        let error = try #require(object["error"] as? [String: Any])
        #expect(error["code"] as? String == "configInvalid")
        #expect(error["exitCode"] as? Int == 78)
        #expect((error["message"] as? String)?.contains("config.yaml:1: key 'timeout' must be a single value") == true)
    }

    @Test func configErrorInTextModeSaysErrorAndHint() async throws {
        let home = try TemporaryDirectory()
        let result = try await run(ConfigShowCommand.self, ["--profile", "nope"], home: home)
        #expect(result.status == .configuration)
        #expect(result.standardError.hasPrefix("conn: error: profile 'nope' (from flag --profile) cannot be used"))
        #expect(result.standardError.contains("conn: Create the file"))
    }

    @Test func warningsGoToStderrAndQuietSilencesThem() async throws {
        let home = try TemporaryDirectory()
        try home.write("config/conn/config.yaml", "sever: http://a\n")
        var result = try await run(ConfigShowCommand.self, ["--json"], home: home)
        #expect(result.status == .ok)
        #expect(result.standardError.contains("warning: \(home.configFile):1: unknown key 'sever' (did you mean 'server'?)"))
        _ = try result.json()  // stdout is still clean JSON
        result = try await run(ConfigShowCommand.self, ["-q"], home: home)
        #expect(result.standardError.isEmpty)
    }

    @Test func colourOnlyOnATerminalAndNeverWithNoColor() async throws {
        let home = try TemporaryDirectory()
        let tty = TerminalFacts(standardInputIsTerminal: true, standardOutputIsTerminal: true, standardErrorIsTerminal: true, isUTF8: true)
        var result = try await run(ConfigShowCommand.self, [], home: home, env: ["TERM": "xterm"], terminal: tty)
        #expect(result.standardOutput.contains("\u{1B}["))
        result = try await run(ConfigShowCommand.self, [], home: home, env: ["TERM": "xterm", "NO_COLOR": "1"], terminal: tty)
        #expect(!result.standardOutput.contains("\u{1B}"))
        result = try await run(ConfigShowCommand.self, [], home: home, env: ["TERM": "xterm"])
        #expect(!result.standardOutput.contains("\u{1B}"))
    }

    @Test func configPathPrintsThePathAndJSONListsDirectories() async throws {
        let home = try TemporaryDirectory()
        var result = try await run(ConfigPathCommand.self, [], home: home)
        #expect(result.standardOutput == home.configFile + "\n")
        result = try await run(ConfigPathCommand.self, ["--json"], home: home)
        let json = try result.json()
        #expect(json["dataDirectory"] as? String == home.path + "/data/conn")
        #expect(json["configFileExists"] as? Bool == false)
    }

    @Test func jsonTimestampsAreUTCWithMilliseconds() throws {
        struct Stamp: Encodable { let at: Date }
        let json = try JSONOutput.encode(Stamp(at: Date(timeIntervalSince1970: 1_700_000_000.125)))
        #expect(json == #"{"at":"2023-11-14T22:13:20.125Z","schemaVersion":1}"#)
    }

    /// A result that writes in pieces (in its own order) and one that only renders whole.
    struct Pieces: Encodable, StreamingTextRenderable {
        func renderText(style: TextStyle) -> String { "whole\n" }
        func renderText(style: TextStyle, write: (String) -> Void) { write("piece 1\n"); write("piece 2\n") }
    }

    struct Whole: Encodable, TextRenderable {
        func renderText(style: TextStyle) -> String { "whole" }
    }

    @Test("the printer streams a result that can stream, and writes the rest whole, without a cast")
    func streamingIsAskedNotCast() throws {
        #expect(Pieces().asStreaming != nil)
        #expect(Whole().asStreaming == nil)
        for (payload, expected) in [(Pieces() as any Encodable & TextRenderable, "piece 1\npiece 2\n"), (Whole(), "whole\n")] {
            let sink = CapturingOutputSink()
            let printer = Printer(sink: sink, format: .text, verbosity: .normal, color: .never, terminal: .none, environment: [:])
            try printer.emit(payload)
            #expect(sink.standardOutput == expected)
        }
    }

    @Test("a CONN_ variable counts when it is the only one, and the file counts when there is none")
    func environmentIsAskedOnlyWhenItMayHoldSettings() async throws {
        let home = try TemporaryDirectory()
        try home.write("config/conn/config.yaml", "server: http://127.0.0.1:1\ntimeout: 9s\n")
        let fromEnvironment = try await run(ConfigShowCommand.self, ["--json"], home: home, env: ["CONN_TIMEOUT": "7s"]).json()
        #expect(fromEnvironment["timeoutSeconds"] as? Double == 7)
        #expect((fromEnvironment["sources"] as? [String: [String: String]])?["timeout"]?["kind"] == "environment")
        let fromFile = try await run(ConfigShowCommand.self, ["--json"], home: home).json()
        #expect(fromFile["timeoutSeconds"] as? Double == 9)
        #expect((fromFile["sources"] as? [String: [String: String]])?["timeout"]?["kind"] == "file")
    }
}
