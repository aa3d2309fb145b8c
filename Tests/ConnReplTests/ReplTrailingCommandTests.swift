import ConnTestSupport
import Foundation
import Testing

/// `probe … -- COMMAND` replaces the process (exec): inside `conn repl` it would replace the REPL,
/// so there it is refused, the command never runs, and the session goes on.
@Suite("conn repl refuses probe … -- COMMAND")
struct ReplTrailingCommandTests {
    @Test("refused with its reason and the hint to run it from a shell; the command did not run; the next command still works")
    func refused() async throws {
        let home = try TemporaryDirectory()
        try await ServerProcess.with { url in
            let marker = home.path + "/ran"
            let repl = try JSONLinesProcess(ConnProcess.connPath, ["repl", "--json", "--no-internet"],
                                            environment: home.environment.merging(["CONN_SERVER": url.absoluteString]) { $1 }, input: true)
            try repl.send("probe \(url.absoluteString)/health -- touch \(marker)")
            #expect(try await repl.awaitError(containing: "cannot run inside `conn repl`"), "\(repl.errorOutput)")
            #expect(repl.errorOutput.contains("Run it from your shell."), "\(repl.errorOutput)")
            // The session goes on: the next command answers (its JSON on stdout).
            let before = repl.events.count
            try repl.send("probe --json \(url.absoluteString)/health")
            let answer = try await repl.await { _ in repl.events.count > before }
            #expect((answer?["results"] as? [[String: Any]])?.first?["reachable"] as? Bool == true, "\(repl.events)")
            // End of input ends the session with the last command's status (the probe's 0).
            try repl.closeInput()
            #expect(await repl.process.exited(killingAfter: 30) == 0)
            #expect(!FileManager.default.fileExists(atPath: marker), "the command after -- ran")
        }
    }
}
