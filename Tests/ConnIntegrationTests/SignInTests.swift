import ConnTestSupport
import Foundation
import Testing

/// `conn login` and `conn logout` against conn-server: the password asked for in a real terminal
/// (tmux) without echo, the token kept 0600 and used, refused, server down, signed out.
@Suite("conn login and logout", .serialized)
struct SignInTests {
    let home: TemporaryDirectory

    init() throws { home = try TemporaryDirectory() }

    /// The status and the screen as one line (a message may wrap).
    func finished(_ session: TerminalSession) async throws -> (status: Int32, screen: String) {
        let (status, screen) = try await session.finished()
        return (status, screen.replacingOccurrences(of: "\n", with: " "))
    }

    var sessionFile: String { home.path + "/data/conn/sessions/default.json" }

    @Test("a prompted password (not echoed) signs in; the token is kept 0600 and opens the inbox; config show says who; logout ends it",
          .enabled(if: TerminalSession.available, "needs tmux"))
    func promptedSignIn() async throws {
        let server = try await BackgroundServer.start(["--account", "ann@example.com:correct horse", "--generate", "2"])
        // Without a sign-in, the server refuses the inbox.
        #expect(try await home.conn(["inbox", "fetch"], server: server.url).exitCode == 77)

        let login = try home.terminal(["login"], server: server.url)
        try await login.waitFor(15, "the address prompt") { $0.hasSuffix("E-mail:") }
        try login.type("ann@example.com")
        try login.press("Enter")
        try await login.waitFor(15, "the password prompt") { $0.hasSuffix("Password for ann@example.com:") }
        try login.type("correct horse")
        try login.press("Enter")
        let (status, screen) = try await finished(login)
        #expect(status == 0, "\(screen)")
        #expect(screen.contains("signed in to \(server.url.absoluteString) as ann@example.com until"), "\(screen)")
        #expect(!screen.contains("correct horse"), "the password was echoed: \(screen)")

        let attributes = try FileManager.default.attributesOfItem(atPath: sessionFile)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try await home.conn(["inbox", "fetch"], server: server.url).exitCode == 0)
        let shown = try await home.conn(["config", "show"], server: server.url)
        #expect(shown.standardOutput.contains("(signed in as ann@example.com, token hidden)"), "\(shown.standardOutput)")
        #expect(!shown.standardOutput.contains(try String(contentsOfFile: sessionFile, encoding: .utf8).components(separatedBy: "\"token\":\"")[1].prefix(64)))

        // The kept token goes to the server that granted it only: another server gets none.
        let other = try await BackgroundServer.start(["--token", "other-servers-token"])
        let elsewhere = try await home.conn(["inbox", "fetch", "-v"], server: other.url)
        #expect(elsewhere.exitCode == 77 && !elsewhere.standardError.contains("Authorization"), "\(elsewhere.standardError)")
        let otherShown = try await home.conn(["config", "show", "--json"], server: other.url)
        let signIn = try #require(try otherShown.json()["signIn"] as? [String: Any])
        #expect(signIn["inUse"] as? Bool == false && (signIn["note"] as? String)?.contains("not this server") == true, "\(signIn)")
        await other.stop()

        let logout = try await home.conn(["logout"], server: server.url)
        #expect(logout.exitCode == 0 && logout.standardOutput.contains("signed out ann@example.com"), "\(logout.standardOutput)")
        #expect(!FileManager.default.fileExists(atPath: sessionFile))
        #expect(try await home.conn(["inbox", "fetch"], server: server.url).exitCode == 77)
        await server.stop()
    }

    @Test("a wrong password is 77 with nothing stored; a server that is down is 69; a portal's 200 is not a session (65)",
          .enabled(if: TerminalSession.available, "needs tmux"))
    func refusedAndUnreachable() async throws {
        let server = try await BackgroundServer.start(["--account", "ann@example.com:right"])
        let wrong = try home.terminal(["login", "--email", "ann@example.com"], server: server.url)
        try await wrong.waitFor(15, "the password prompt") { $0.hasSuffix("Password for ann@example.com:") }
        try wrong.type("wrong")
        try wrong.press("Enter")
        let refused = try await finished(wrong)
        #expect(refused.status == 77, "\(refused.screen)")
        #expect(refused.screen.contains("refused the e-mail address and password"), "\(refused.screen)")
        #expect(!FileManager.default.fileExists(atPath: sessionFile))
        await server.stop()

        let closed = URL(string: "http://127.0.0.1:\(try HTTPPorts.closed())")!
        let down = try home.terminal(["login", "--email", "ann@example.com"], server: closed)
        try await down.waitFor(15, "the password prompt") { $0.hasSuffix("Password for ann@example.com:") }
        try down.type("right")
        try down.press("Enter")
        let unreachable = try await finished(down)
        #expect(unreachable.status == 69, "\(unreachable.screen)")
        #expect(unreachable.screen.contains("refused the connection"), "\(unreachable.screen)")

        let portal = try await BackgroundServer.start(["--portal"])
        let captive = try await home.conn(["login", "--email", "ann@example.com", "--password-stdin"], server: portal.url, input: "right\n")
        #expect(captive.exitCode == 65 && captive.standardError.contains("without a session"), "\(captive.standardError)")
        #expect(!FileManager.default.fileExists(atPath: sessionFile))
        await portal.stop()
    }

    @Test("Ctrl-C at the password prompt leaves the terminal echoing again", .enabled(if: TerminalSession.available, "needs tmux"))
    func interruptRestoresEcho() async throws {
        let server = try await BackgroundServer.start(["--account", "ann@example.com:right"])
        let shell = try TerminalSession(["/bin/sh"], environment: home.environment.merging([
            "CONN_SERVER": server.url.absoluteString, "TERM": "xterm-256color", "LANG": "C.UTF-8", "PS1": "$ ",
        ]) { $1 })
        try await shell.waitFor(10, "the shell") { $0.hasSuffix("$") }
        try shell.type("\(ConnProcess.connPath) login --email ann@example.com")
        try shell.press("Enter")
        try await shell.waitFor(15, "the password prompt") { $0.hasSuffix("Password for ann@example.com:") }
        try shell.press("C-c")
        try await shell.waitFor(10, "the shell again") { $0.hasSuffix("$") }
        // With echo still off, the typed line would not show; only the command's output would.
        try shell.type("echo visible-again")
        let typed = try await shell.waitFor(10, "the typed line echoed") { $0.contains("echo visible-again") }
        #expect(typed.contains("$ echo visible-again"), "\(typed)")
        try shell.press("Enter")
        let ran = try await shell.waitFor(10, "its output") { $0.split(separator: "\n").contains("visible-again") }
        // No password was taken: nothing was written for the session.
        #expect(ran.contains("visible-again") && !FileManager.default.fileExists(atPath: sessionFile), "\(ran)")
        try shell.press("C-d")
        await server.stop()
    }
}
