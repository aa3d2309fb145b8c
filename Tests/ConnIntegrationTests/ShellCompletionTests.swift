import ConnTestSupport
import Foundation
import Testing

/// Tab in real shells (bash with bash-completion, zsh, fish, each in tmux) with the completion
/// scripts of completions/: live values come from this machine — inbox uids and outbox ids from
/// the local database, profile names from the config file, plugin names from PATH.
@Suite("shell completion", .enabled(if: TerminalSession.available, "needs tmux (scripts/install-deps)"))
struct ShellCompletionTests {
    /// A home with an inbox cache of two servers — the configured one's (uids alpha-42 and
    /// beta-7) and another's, fetched last (alpha-99, gamma-3) — one queued message, two
    /// profiles and a plugin conn-greet.
    struct Fixture {
        let home: TemporaryDirectory
        let environment: [String: String]
        let outboxID: String
        /// The other server's URL (gone; its copy stays cached).
        let other: String
    }

    static let completions = JSONSchemaCheck.repositoryRoot.appendingPathComponent("completions").path

    static func fixture() async throws -> Fixture {
        let home = try TemporaryDirectory()
        try home.write("inbox.json", #"{"inbox":[{"uid":"alpha-42","from":"a@b.cc","to":"c@d.ee","subject":"s","text":"t","responseToUid":"","dateTime":"Today"},{"uid":"beta-7","from":"a@b.cc","to":"c@d.ee","subject":"s","text":"t","responseToUid":"","dateTime":"Today"}]}"#)
        try home.write("other.json", #"{"inbox":[{"uid":"alpha-99","from":"a@b.cc","to":"c@d.ee","subject":"s","text":"t","responseToUid":"","dateTime":"Today"},{"uid":"gamma-3","from":"a@b.cc","to":"c@d.ee","subject":"s","text":"t","responseToUid":"","dateTime":"Today"}]}"#)
        let configured = try await ServerProcess.with(["--seed", home.path + "/inbox.json"]) { server in
            _ = try await home.conn(["inbox", "fetch"], server: server)
            return server.absoluteString
        }
        let other = try await ServerProcess.with(["--seed", home.path + "/other.json"]) { server in
            _ = try await home.conn(["inbox", "fetch"], server: server)
            return server.absoluteString
        }
        let closed = URL(string: "http://127.0.0.1:\(try HTTPPorts.closed())")!
        let queued = try await home.conn(["send", "--json", "--to", "a@b.cc", "--subject", "s", "--text", "t"], server: closed)
        let outboxID = try #require(try queued.json()["id"] as? String)
        try home.write("config/conn/config.yaml", "server: \(configured)\nprofiles:\n  work:\n    server: http://127.0.0.1:9\n  local:\n    server: http://127.0.0.1:8\n")
        try home.write("bin/conn-greet", "#!/bin/sh\necho hello\n", mode: 0o755)
        let binaries = URL(fileURLWithPath: ConnProcess.connPath).deletingLastPathComponent().path
        var environment = home.environment
        environment["PATH"] = "\(binaries):\(home.path)/bin:/usr/bin:/bin"
        environment["TERM"] = "xterm-256color"
        environment["LANG"] = "C.UTF-8"
        return Fixture(home: home, environment: environment, outboxID: outboxID, other: other)
    }

    /// Types `line`, presses Tab, and expects the command line as the shell completed it to contain
    /// `completed`. The wait is long because fish evaluates every completion condition on each Tab
    /// (~0.6 s of CPU here), and CI runs the whole suite at once on two cores.
    static func expectCompletion(_ terminal: TerminalSession, _ line: String, expecting: String, completed: String, _ what: String,
                                 sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try terminal.type(line)
        try terminal.press("Tab")
        let screen = try? await terminal.waitFor(60, "completion of '\(line)'") { $0.split(separator: "\n").last?.contains(expecting) == true }
        let last = try terminal.lastLine()
        let shown = screen == nil ? (try? terminal.screen()) ?? "" : ""
        try terminal.press("C-u")  // clear the line for the next one
        if screen == nil { try terminal.press("C-c") }
        try await Task.sleep(for: .milliseconds(100))
        #expect(last.contains(completed), "\(what): the last line was '\(last)'\(shown.isEmpty ? "" : "; the screen:\n\(shown)")",
                sourceLocation: sourceLocation)
    }

    /// The four live completions, in one shell already set up.
    static func checkAll(_ terminal: TerminalSession, _ fixture: Fixture) async throws {
        try await expectCompletion(terminal, "conn gr", expecting: "conn greet", completed: "conn greet", "plugin name")
        // The configured server's copy only: alpha-99 is the other server's.
        try await expectCompletion(terminal, "conn inbox thread al", expecting: "alpha-42", completed: "conn inbox thread alpha-42", "inbox uid")
        try await expectCompletion(terminal, "conn --server \(fixture.other) inbox thread al", expecting: "alpha-99", completed: "thread alpha-99",
                                   "inbox uid of the server typed")
        let id = String(fixture.outboxID.prefix(8))
        try await expectCompletion(terminal, "conn outbox show \(id.prefix(3))", expecting: id, completed: "conn outbox show \(id)", "outbox id")
        try await expectCompletion(terminal, "conn probe --profile wo", expecting: "work", completed: "conn probe --profile work", "profile name")
        // Every test machine has its loopback interface, lo (and only it begins with "lo").
        try await expectCompletion(terminal, "conn probe --interface l", expecting: "--interface lo", completed: "conn probe --interface lo", "interface name")
        try await expectCompletion(terminal, "conn send --reply-to be", expecting: "beta-7", completed: "--reply-to beta-7", "uid for --reply-to")
    }

    /// Global options before the command's name: their values are not taken for the command.
    static func checkAfterGlobalOptions(_ terminal: TerminalSession) async throws {
        // A global option's value before any command: the option's own completion, not commands.
        try await expectCompletion(terminal, "conn --profile wo", expecting: "--profile work", completed: "conn --profile work", "profile before the command")
        try await expectCompletion(terminal, "conn --server http://127.0.0.1:9 inbox li", expecting: "inbox list", completed: "inbox list",
                                   "subcommand after --server URL")
        try await expectCompletion(terminal, "conn --json --timeout 5s inbox thread al", expecting: "alpha-42", completed: "thread alpha-42",
                                   "uid after --json --timeout 5s")
    }

    static func shell(_ path: String) -> Bool { FileManager.default.isExecutableFile(atPath: path) }

    @Test("bash with bash-completion", .enabled(if: shell("/usr/bin/bash") && FileManager.default.fileExists(atPath: "/usr/share/bash-completion/bash_completion"),
                                              "needs bash-completion (scripts/install-deps)"))
    func bash() async throws {
        let fixture = try await Self.fixture()
        let terminal = try TerminalSession(["/usr/bin/bash", "--norc", "--noprofile"], environment: fixture.environment.merging(["PS1": "$ "]) { $1 })
        try terminal.type("source /usr/share/bash-completion/bash_completion; source \(Self.completions)/conn.bash; echo ready")
        try terminal.press("Enter")
        try await terminal.waitFor(10, "bash set up") { $0.contains("\nready") }
        try await Self.checkAll(terminal, fixture)
        try await Self.checkAfterGlobalOptions(terminal)
    }

    @Test("zsh with compinit", .enabled(if: shell("/usr/bin/zsh"), "needs zsh (scripts/install-deps)"))
    func zsh() async throws {
        let fixture = try await Self.fixture()
        let terminal = try TerminalSession(["/usr/bin/zsh", "-f"], environment: fixture.environment)
        try terminal.type("PROMPT='$ '; fpath=(\(Self.completions) $fpath); autoload -U compinit && compinit -u -D; echo ready")
        try terminal.press("Enter")
        try await terminal.waitFor(10, "zsh set up") { $0.contains("\nready") }
        try await Self.checkAll(terminal, fixture)
        try await Self.checkAfterGlobalOptions(terminal)
    }

    @Test("fish", .enabled(if: shell("/usr/bin/fish"), "needs fish (scripts/install-deps)"))
    func fish() async throws {
        let fixture = try await Self.fixture()
        let terminal = try TerminalSession(["/usr/bin/fish", "--no-config"], environment: fixture.environment)
        // Autosuggestions off: they run the completions on every key typed, which only adds load.
        try terminal.type("function fish_prompt; echo -n '$ '; end; set -g fish_autosuggestion_enabled 0; source \(Self.completions)/conn.fish; echo ready")
        try terminal.press("Enter")
        try await terminal.waitFor(10, "fish set up") { $0.contains("\nready") }
        try await Self.checkAll(terminal, fixture)
        try await Self.checkAfterGlobalOptions(terminal)
    }
}
