import ConnTestSupport
import Foundation
import Testing

/// The REPL says when the way out moves while the server still answers, as watch's path event
/// and NWPathMonitor do.
@Suite("conn repl and the path", .serialized)
struct ReplPathTests {
    @Test("in a namespace, in tmux: the default route moves to another interface → one 'path:' line naming it; the prompt stays online",
          .enabled(if: TerminalSession.available && NetworkNamespace.available, "needs tmux, root and ip netns"))
    func defaultRouteMoves() async throws {
        let home = try TemporaryDirectory()
        let ways = try await TwoWaysOut()
        let environment = home.environment.merging(["CONN_SERVER": ways.server.url.absoluteString, "TERM": "xterm-256color", "LANG": "C.UTF-8"]) { $1 }
        // A 60 s interval: only the kernel's route notification can make the line appear.
        let (program, arguments) = ways.client.wrap([ConnProcess.connPath, "repl", "--interval", "60s"])
        let terminal = try TerminalSession([program] + arguments, environment: environment)
        try await terminal.waitFor(30, "the online prompt") { $0.hasSuffix("conn online ›") }
        try await ways.moveDefaultRoute()
        let screen = try await terminal.waitFor(30, "the path line") { $0.contains("path: online via \(ways.second)") && $0.hasSuffix("conn online ›") }
        #expect(screen.components(separatedBy: "path: ").count == 2, "one announcement: \(screen)")
        #expect(screen.contains("IPv6 no"), "no IPv6 route: said, not left out: \(screen)")
        await ways.server.stop()
    }
}
