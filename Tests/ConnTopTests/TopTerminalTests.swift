import ConnTestSupport
import Foundation
import Testing

/// `conn top` in a real terminal (tmux), against the real conn-server and the real agent.
@Suite("conn top in a terminal", .enabled(if: TerminalSession.available, "needs tmux"), .serialized)
struct TopTerminalTests {
    let home: TemporaryDirectory

    init() throws { home = try TemporaryDirectory() }

    /// `conn top ARGS…` in a terminal of its own, run by a shell that records the terminal's
    /// modes (`stty -g`) before and after, so a test can tell the terminal was given back.
    func top(_ arguments: [String], server: URL, columns: Int = 80, rows: Int = 24, env: [String: String] = [:]) throws -> TerminalSession {
        let quoted = ([ConnProcess.connPath, "top"] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let script = "trap : INT; stty -g > '\(home.path)/stty.before'; \(quoted); status=$?; stty -g > '\(home.path)/stty.after'; exit $status"
        let variables = home.environment.merging(["CONN_SERVER": server.absoluteString, "TERM": "xterm-256color", "LANG": "C.UTF-8"]) { $1 }
        return try TerminalSession(["/bin/sh", "-c", script], environment: variables.merging(env) { $1 }, columns: columns, rows: rows)
    }

    /// Whether the terminal's modes after conn top are the ones before it.
    func terminalGivenBack() throws -> Bool {
        let before = try String(contentsOfFile: home.path + "/stty.before", encoding: .utf8)
        let after = try String(contentsOfFile: home.path + "/stty.after", encoding: .utf8)
        return !before.isEmpty && before == after
    }

    @Test("its own monitor: online with the target's latency; the server killed → the new state on the screen within seconds (measured); q gives the terminal back as it was")
    func serverDiesThenQuit() async throws {
        let server = try await BackgroundServer.start(["--port", String(try HTTPPorts.outsideAutomaticRange())])
        let terminal = try top(["--no-agent", "--no-internet", "--interval", "1s"], server: server.url)
        let first = try await terminal.waitFor(20, "online with a latency") { $0.contains("state   online") && $0.contains("▶ \(server.url.absoluteString)/health") }
        #expect(first.contains("own monitor") && first.contains("outbox  0 pending") && first.contains("link    "), "\(first)")
        #expect(first.split(separator: "\n").last?.hasPrefix("q quit") == true, "\(first)")
        server.signal(SIGKILL)
        let killed = Date()
        let down = try await terminal.waitFor(20, "serverUnreachable") { $0.contains("state   serverUnreachable") }
        let seconds = Date().timeIntervalSince(killed)
        print("conn top showed serverUnreachable \(String(format: "%.2f", seconds)) s after the server was killed")
        // ~0.1 s alone: the link's socket closes. Under a full parallel run on 2 cores CI once
        // took 5.5 s (the screen redraws each second, the look runs each second, both late): the
        // bound is what a loaded machine needs, not the speed, which BENCHMARKS.md measures.
        #expect(seconds < 15, "\(seconds) s")
        // refused, or unexpectedBody when the kill cut an answer short: a failed look either way.
        #expect(down.contains("×"), "the failed look in the trace: \(down)")
        try terminal.type("q")
        let (status, screen) = try await terminal.finished()
        #expect(status == 0, "\(screen)")
        #expect(!screen.contains("conn top"), "the alternate screen is left: \(screen)")
        #expect(try terminalGivenBack())
        await server.stop()
    }

    @Test("resized, it redraws at the new size; at 10×5 it says it is too small; back at 80×24 it shows it all; Ctrl-C ends it (130) with the terminal given back")
    func resizes() async throws {
        try await ServerProcess.with { url in
            let terminal = try top(["--no-agent", "--no-internet"], server: url)
            try await terminal.waitFor(20, "online") { $0.contains("state   online") }
            try terminal.resize(columns: 60, rows: 20)
            let narrow = try await terminal.waitFor(10, "a 60-column rule") { $0.contains(String(repeating: "─", count: 60)) && !$0.contains(String(repeating: "─", count: 61)) }
            #expect(narrow.split(separator: "\n", omittingEmptySubsequences: false).count <= 20, "\(narrow)")
            try terminal.resize(columns: 10, rows: 5)
            try await terminal.waitFor(10, "too small") { $0.hasPrefix("terminal\ntoo small:") }
            try terminal.resize(columns: 80, rows: 24)
            try await terminal.waitFor(10, "the whole view again") { $0.contains("state   online") && $0.contains("q quit") }
            try terminal.press("C-c")
            let (status, screen) = try await terminal.finished()
            #expect(status == 130, "\(screen)")
            #expect(try terminalGivenBack())
        }
    }

    @Test("an agent that hangs (SIGSTOP: its socket accepts, it never answers) → top says it stopped answering within seconds and goes on with its own monitor; q ends it (0)",
          .enabled(if: TerminalSession.available, "needs tmux"))
    func fromAHungAgent() async throws {
        try await ServerProcess.with { url in
            let agent = try JSONLinesProcess(ConnProcess.connPath, ["agent", "--json", "--no-internet", "--interval", "1h"],
                                             environment: home.environment.merging(["CONN_SERVER": url.absoluteString]) { $1 })
            _ = try #require(try await agent.await { $0["type"] as? String == "baseline" }, "\(agent.errorOutput)")
            let terminal = try top([], server: url)
            try await terminal.waitFor(20, "the agent's view") { $0.contains("agent pid \(agent.process.processIdentifier)") }
            agent.process.signal(SIGSTOP)
            defer { agent.process.signal(SIGCONT) }
            let fallback = try await terminal.waitFor(20, "the fallback") { $0.contains("own monitor") && $0.contains("the agent stopped answering") }
            #expect(!fallback.contains("agent pid \(agent.process.processIdentifier)"), "\(fallback)")
            try await terminal.waitFor(20, "online, from its own monitor") { $0.contains("own monitor") && $0.contains("state   online") }
            try terminal.type("q")
            let (status, screen) = try await terminal.finished()
            #expect(status == 0, "\(screen)")
            agent.process.signal(SIGCONT)
            let stopped = await agent.stop()
            #expect(stopped == 0, "\(stopped) \(agent.errorOutput.suffix(1500))")
        }
    }

    @Test("the running agent as its source (its targets' latencies); the agent killed → top says so and goes on with its own monitor; SIGTERM ends it (143), terminal given back")
    func fromTheAgent() async throws {
        try await ServerProcess.with { url in
            // Looks once an hour: a look after `r` is top's doing.
            let agent = try JSONLinesProcess(ConnProcess.connPath, ["agent", "--json", "--no-internet", "--interval", "1h"],
                                             environment: home.environment.merging(["CONN_SERVER": url.absoluteString]) { $1 })
            _ = try #require(try await agent.await { $0["type"] as? String == "baseline" }, "\(agent.errorOutput)")
            let marker = "http://127.0.0.1:\(url.port!)/health"
            let terminal = try top([], server: url)
            let seen = try await terminal.waitFor(20, "the agent's view") { $0.contains("agent pid \(agent.process.processIdentifier)") && $0.contains("▶ \(marker)") }
            #expect(seen.contains("state   online"), "\(seen)")
            // r asks the agent to look now: its status's lookedAt moves.
            func lookedAt() async throws -> String? {
                try await home.conn(["agent", "status", "--json"], server: url).json()["lookedAt"] as? String
            }
            let before = try #require(try await lookedAt())
            try terminal.type("r")
            try await terminal.waitFor(10, "probing now") { $0.contains("probing now") }
            let moved = try await poll(for: 10, every: .milliseconds(200)) { try await lookedAt().flatMap { $0 != before ? $0 : nil } }
            #expect(moved != nil, "the agent did not look again after r")
            // Targets of one's own are not the agent's: top watches them itself.
            let own = try TerminalSession([ConnProcess.connPath, "top", "--no-internet", "\(url.absoluteString)/health?own"],
                                          environment: home.environment.merging(["CONN_SERVER": url.absoluteString, "TERM": "xterm-256color", "LANG": "C.UTF-8"]) { $1 })
            try await own.waitFor(20, "its own monitor") { $0.contains("(own monitor)") && $0.contains("/health?own") }
            try own.type("q")
            #expect(try await own.finished().status == 0)
            agent.process.terminate()  // SIGTERM: the agent ends; its socket goes with it
            _ = await agent.stop()
            let fallback = try await terminal.waitFor(20, "the fallback") { $0.contains("own monitor") && $0.contains("the agent stopped answering") }
            // The source switched: the agent's pid is gone from the header (online again is awaited below).
            #expect(!fallback.contains("agent pid \(agent.process.processIdentifier)"), "\(fallback)")
            try await terminal.waitFor(20, "online again, from its own monitor") { $0.contains("own monitor") && $0.contains("state   online") }
            let pids = try await ConnProcess.run("/usr/bin/pgrep", ["-x", "-f", "\(ConnProcess.connPath) top"], environment: [:])
            let pid = try #require(Int32(pids.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)), "\(pids.standardOutput)")
            kill(pid, SIGTERM)
            let (status, screen) = try await terminal.finished()
            #expect(status == 143, "\(screen)")
            #expect(try terminalGivenBack())
        }
    }

    @Test("a locale without UTF-8: ASCII only (rules of '-', '>' for the selection)")
    func asciiLocale() async throws {
        try await ServerProcess.with { url in
            let terminal = try top(["--no-agent", "--no-internet"], server: url, env: ["LANG": "C", "LC_ALL": "C"])
            let screen = try await terminal.waitFor(20, "online") { $0.contains("state   online") && $0.contains("> http") }
            #expect(screen.contains(String(repeating: "-", count: 80)) && !screen.contains("─") && !screen.contains("▶"), "\(screen)")
            try terminal.type("q")
            #expect(try await terminal.finished().status == 0)
        }
    }

    @Test("without a terminal it refuses with 64 and points to conn watch --json; inside conn repl too")
    func notATerminal() async throws {
        let outcome = try await home.conn(["top"], server: URL(string: "http://127.0.0.1:1")!)
        #expect(outcome.exitCode == 64 && outcome.standardError.contains("conn watch --json"), "\(outcome.standardError)")
        let repl = try await home.conn(["repl", "--no-link"], server: URL(string: "http://127.0.0.1:1")!, input: "top\n")
        #expect(repl.exitCode == 64, "\(repl.standardError)")
    }
}
