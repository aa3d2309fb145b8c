import ConnTestSupport
import Foundation
import Testing

/// A password typed into a `user:password@` URL is refused everywhere, and nothing keeps it: not
/// an error message (ArgumentParser's "unexpected argument", the "not a conn command" suggestion,
/// a probe target without a scheme), not JSON, not `-v` logs, not the REPL's history file. After
/// each case, every output and every file under the throwaway HOME is searched for it.
@Suite("no secret left behind", .enabled(if: TerminalSession.available, "needs tmux"), .serialized)
struct SecretsLeftBehindTests {
    static let password = "s3cr3t-Pw-7731"
    let home: TemporaryDirectory

    init() throws { home = try TemporaryDirectory() }

    /// Every file under HOME that holds the password (the history, the database, a log).
    func filesHoldingThePassword() throws -> [String] {
        var found: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: home.path)
        while let relative = enumerator?.nextObject() as? String {
            let path = home.path + "/" + relative
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
                let data = FileManager.default.contents(atPath: path)
            else { continue }
            if data.range(of: Data(Self.password.utf8)) != nil { found.append(relative) }
        }
        return found
    }

    @Test("--server with a password before the command, a scheme-less probe target, an unexpected argument: refused (64), in text, JSON and -v, and never echoed")
    func commandLine() async throws {
        let url = "http://ann:\(Self.password)@127.0.0.1:1"
        let bare = "ann:\(Self.password)@127.0.0.2:18080"
        let cases: [[String]] = [
            ["--server", url, "probe"], ["--json", "--server", url, "probe"], ["-v", "--server", url, "probe"],
            ["probe", bare], ["probe", "--json", bare], ["-v", "probe", url + "/health"],
            [bare], ["--json", bare],
        ]
        for arguments in cases {
            let outcome = try await ConnProcess.run(ConnProcess.connPath, arguments, environment: home.environment)
            #expect(outcome.exitCode == 64, "\(arguments): \(outcome.exitCode) \(outcome.standardError)")
            #expect(!(outcome.standardOutput + outcome.standardError).contains(Self.password),
                    "\(arguments) echoed the password: \(outcome.standardOutput) \(outcome.standardError)")
            #expect(outcome.standardError.contains("***@"), "\(arguments) does not say which URL: \(outcome.standardError)")
        }
        // A mistyped command after the URL: the error is about the command, and still no password.
        let mistyped = try await ConnProcess.run(ConnProcess.connPath, ["--server", url, "pobe"], environment: home.environment)
        #expect(mistyped.exitCode == 64 && mistyped.standardError.contains("pobe"), "\(mistyped.standardError)")
        #expect(!(mistyped.standardOutput + mistyped.standardError).contains(Self.password), "\(mistyped.standardError)")
        #expect(try filesHoldingThePassword().isEmpty)
    }

    @Test("the REPL refuses the URLs and keeps them in its history as ***@, in the file and when recalled")
    func replHistory() async throws {
        let server = try await BackgroundServer.start()
        let environment = home.environment.merging(["CONN_SERVER": server.url.absoluteString, "TERM": "xterm-256color", "LANG": "C.UTF-8"]) { $1 }
        let terminal = try TerminalSession([ConnProcess.connPath, "repl", "--interval", "1s"], environment: environment)
        try await terminal.waitFor(20, "the prompt") { $0.hasSuffix("conn online ›") }
        try terminal.type("probe http://ann:\(Self.password)@127.0.0.1:1/health")
        try terminal.press("Enter")
        try await terminal.waitFor(15, "the refusal") { $0.contains("***@127.0.0.1:1") && $0.hasSuffix("›") }
        try terminal.type("probe ann:\(Self.password)@127.0.0.2:18080 --timeout 1s")
        try terminal.press("Enter")
        try await terminal.waitFor(15, "the second refusal") { $0.contains("***@127.0.0.2:18080") && $0.hasSuffix("›") }
        try terminal.press("C-l")
        try terminal.press("Up")
        try await terminal.waitFor(15, "the recalled line") { $0.hasSuffix("› probe ***@127.0.0.2:18080 --timeout 1s") }
        try terminal.press("C-u")
        try terminal.press("C-d")
        try await terminal.waitFor(15, "the exit") { _ in (try? terminal.exitStatus()) != nil }
        await server.stop()

        let history = try String(contentsOfFile: home.path + "/state/conn/history", encoding: .utf8)
        #expect(history.contains("probe http://***@127.0.0.1:1/health") && history.contains("probe ***@127.0.0.2:18080"), "\(history)")
        let holding = try filesHoldingThePassword()
        #expect(holding.isEmpty, "\(holding)")
    }
}
