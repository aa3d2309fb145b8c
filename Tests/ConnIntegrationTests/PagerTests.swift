import ConnTestSupport
import Foundation
import Testing

/// Long output on a terminal goes through the pager; in a pipe, with --no-pager, CONN_PAGER=cat or
/// when it fits the screen, it does not. The pager is a script that records what it was given.
@Suite("the pager", .enabled(if: TerminalSession.available, "needs tmux"), .serialized)
struct PagerTests {
    let home: TemporaryDirectory

    init() throws { home = try TemporaryDirectory() }

    func run(_ arguments: [String], server: URL, extra: [String: String] = [:]) async throws -> (status: Int32, screen: String) {
        let session = try home.terminal(arguments, server: server, env: ["CONN_PAGER": home.path + "/bin/record-pager"].merging(extra) { $1 })
        return try await session.finished(within: 30)
    }

    var recorded: String? { try? String(contentsOfFile: home.path + "/paged.txt", encoding: .utf8) }

    @Test("inbox list --limit 200 pages through $CONN_PAGER on a 40-row terminal; 5 conversations, --no-pager, CONN_PAGER=cat and a pipe do not")
    func pagesLongOutput() async throws {
        try home.write("bin/record-pager", "#!/bin/sh\ncat > \"$HOME/paged.txt\"\necho \"paged $(wc -l < \"$HOME/paged.txt\") lines\"\n", mode: 0o755)
        let server = try await BackgroundServer.start(["--generate", "400"])
        #expect(try await home.conn(["inbox", "fetch"], server: server.url).exitCode == 0)

        let long = try await run(["inbox", "list", "--limit", "200"], server: server.url)
        #expect(long.status == 0, "\(long.screen)")
        let paged = try #require(recorded, "the pager was not run: \(long.screen)")
        #expect(paged.split(separator: "\n").count > 100, "\(paged.prefix(300))")
        #expect(long.screen.contains("paged "), "\(long.screen)")
        try FileManager.default.removeItem(atPath: home.path + "/paged.txt")

        for (arguments, extra) in [(["inbox", "list", "--limit", "5"], [:]), (["inbox", "list", "--limit", "200", "--no-pager"], [:]),
                                   (["inbox", "list", "--limit", "200"], ["CONN_PAGER": "cat"])] as [([String], [String: String])] {
            let outcome = try await run(arguments, server: server.url, extra: extra)
            #expect(outcome.status == 0)
            #expect(recorded == nil, "\(arguments) \(extra) paged")
        }
        let piped = try await home.conn(["inbox", "list", "--limit", "200"], server: server.url,
                                        env: ["CONN_PAGER": home.path + "/bin/record-pager"])
        #expect(piped.exitCode == 0 && recorded == nil && piped.standardOutput.split(separator: "\n").count > 100)
        await server.stop()
    }
}
