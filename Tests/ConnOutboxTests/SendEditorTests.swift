import ConnTestSupport
import Foundation
import Testing

/// `conn send` on a terminal without --text: the text is written in $EDITOR, in a real terminal
/// (tmux), with editors that are scripts recording what they were given.
@Suite("conn send with an editor", .enabled(if: TerminalSession.available, "needs tmux"), .serialized)
struct SendEditorTests {
    let home: TemporaryDirectory

    init() throws { home = try TemporaryDirectory() }

    /// An editor that records the file it got (path, mode, contents), then writes `body` above
    /// the comments (nothing when nil) and exits with `status`.
    func editor(_ name: String, body: String?, status: Int = 0) throws -> String {
        let write = body.map { "{ printf '%s\\n' '\($0)'; cat \"$1\"; } > \"$1.new\" && mv \"$1.new\" \"$1\"" } ?? ":"
        return try home.write("bin/\(name)", """
            #!/bin/sh
            echo "$1" > "$HOME/editor-path"
            stat -c %a "$1" > "$HOME/editor-mode"
            cp "$1" "$HOME/editor-saw"
            \(write)
            exit \(status)
            """, mode: 0o755)
    }

    func send(_ server: URL, editor: String, extra: [String] = []) throws -> TerminalSession {
        try home.terminal(["send", "--to", "ann@example.com", "--subject", "From the editor"] + extra,
                          server: server, env: ["EDITOR": editor, "VISUAL": ""])
    }

    func read(_ name: String) throws -> String {
        try String(contentsOfFile: home.path + "/" + name, encoding: .utf8)
    }

    @Test("the editor gets a private file showing To, Subject and the quoted original; what it writes is sent; the file is gone after")
    func writesAndSends() async throws {
        let server = try await BackgroundServer.start(["--generate", "3"])
        // The original is quoted from the inbox cache.
        let fetched = try await home.conn(["inbox", "fetch"], server: server.url)
        #expect(fetched.exitCode == 0, "\(fetched.standardError)")
        let terminal = try send(server.url, editor: try editor("write", body: "Hello from the editor"), extra: ["--reply-to", "2"])
        _ = try await terminal.finished()
        let screen = try terminal.screen()
        #expect(try terminal.exitStatus() == 0, "\(screen)")
        #expect(screen.contains("sent"), "\(screen)")

        let saw = try read("editor-saw")
        #expect(saw.hasPrefix("\n# Write the message above."), "\(saw)")
        #expect(saw.contains("# To: ann@example.com\n# Subject: From the editor\n"), "\(saw)")
        #expect(saw.contains("# In reply to 2, from ") && saw.contains("# > "), "\(saw)")
        #expect(try read("editor-mode").trimmingCharacters(in: .whitespacesAndNewlines) == "600")
        let path = try read("editor-path").trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!FileManager.default.fileExists(atPath: path), "the editor's file \(path) was left behind")

        let delivered = try await server.inbox().filter { $0["subject"] as? String == "From the editor" }
        #expect(delivered.count == 1)
        #expect(delivered.first?["text"] as? String == "Hello from the editor", "\(delivered)")
        #expect(delivered.first?["responseToUid"] as? String == "2")
        await server.stop()
    }

    @Test("an editor that saves with CRLF line ends: the comments are still left out, the lines sent with LF")
    func crlfEditor() async throws {
        let server = try await BackgroundServer.start()
        let crlf = try home.write("bin/crlf", """
            #!/bin/sh
            { printf 'First line\\r\\nSecond line\\r\\n'; sed 's/$/\\r/' "$1"; } > "$1.new" && mv "$1.new" "$1"
            """, mode: 0o755)
        let terminal = try send(server.url, editor: crlf)
        _ = try await terminal.finished()
        let screen = try terminal.screen()
        #expect(try terminal.exitStatus() == 0, "\(screen)")
        let delivered = try await server.inbox().filter { $0["subject"] as? String == "From the editor" }
        #expect(delivered.first?["text"] as? String == "First line\nSecond line", "\(delivered)")
        await server.stop()
    }

    @Test("an editor that writes nothing sends nothing (exit 0); one that fails is 69 and nothing is queued")
    func emptyAndFailed() async throws {
        let server = try await BackgroundServer.start()
        let empty = try send(server.url, editor: try editor("nothing", body: nil))
        _ = try await empty.finished()
        #expect(try empty.exitStatus() == 0)
        let emptyScreen = try empty.screen().replacingOccurrences(of: "\n", with: "")  // long lines wrap
        #expect(emptyScreen.contains("nothing sent: the message was empty"), "\(emptyScreen)")

        let failing = try send(server.url, editor: try editor("failing", body: "half a thought", status: 3))
        _ = try await failing.finished()
        #expect(try failing.exitStatus() == 69)
        let failingScreen = try failing.screen().replacingOccurrences(of: "\n", with: "")  // long lines wrap
        #expect(failingScreen.contains("exited with 3: nothing was sent"), "\(failingScreen)")

        let missing = try send(server.url, editor: "/nonexistent/editor")
        _ = try await missing.finished()
        #expect(try missing.exitStatus() == 69)
        let missingScreen = try missing.screen().replacingOccurrences(of: "\n", with: "")  // long lines wrap
        #expect(missingScreen.contains("set VISUAL or EDITOR"), "\(missingScreen)")

        let queued = try await home.conn(["outbox", "list", "--json", "--all"], server: server.url)
        let messages = try queued.json()["messages"] as? [Any]
        #expect(messages?.isEmpty == true, "\(queued.standardOutput)")
        #expect(try await server.inbox().isEmpty)
        await server.stop()
    }
}
