import ConnTestSupport
import Foundation
import Testing

/// The JSON contract of docs/json/: every command's --json output, in success and in each class
/// of error, validated against its schema by a real validator (scripts/validate-json), through
/// the real binary against the real conn-server.
@Suite("JSON contract")
struct JSONContractTests {
    /// A command line, the schema its stdout follows (nil: it prints no data), and the exit code
    /// it must end with.
    struct Case: CustomStringConvertible {
        var arguments: [String]
        var schema: String?
        var exitCode: Int32
        var server: URL?
        var input = ""
        var env: [String: String] = [:]

        var description: String { "conn " + arguments.joined(separator: " ") }
    }

    func check(_ cases: [Case], home: TemporaryDirectory) async throws {
        for item in cases {
            let outcome = try await home.conn(item.arguments, server: item.server, env: item.env, input: item.input)
            #expect(outcome.exitCode == item.exitCode, "\(item): \(outcome.standardError)")
            if let schema = item.schema {
                let problems = try await JSONSchemaCheck.violations(of: outcome.standardOutput, schema: schema)
                #expect(problems.isEmpty, "\(item): \(problems)")
            } else {
                #expect(outcome.standardOutput.isEmpty, "\(item) printed on stdout: \(outcome.standardOutput)")
            }
            // A command that failed without data says why in one JSON error on stderr.
            if item.exitCode != 0 && item.schema == nil {
                let problems = try await JSONSchemaCheck.violations(of: outcome.standardError, schema: "error")
                #expect(problems.isEmpty, "\(item) stderr: \(problems)")
            }
        }
    }

    @Test("probe, inbox, send, outbox, clock-offset, config: success and each error class")
    func oneShotCommands() async throws {
        let home = try TemporaryDirectory()
        let closed = URL(string: "http://127.0.0.1:\(try HTTPPorts.closed())")!
        try await ServerProcess.with(["--generate", "6"]) { server in
            try await check([
                Case(arguments: ["probe", "--json"], schema: "probe", exitCode: 0, server: server),
                Case(arguments: ["probe", "--json", "--internet-url", "\(server.absoluteString)/health=204", "--wait", "2s"], schema: "probe", exitCode: 0, server: server),
                Case(arguments: ["probe", "--json", "-v"], schema: "probe", exitCode: 69, server: closed),
                Case(arguments: ["probe", "--json", "http://127.0.0.1:99999/"], schema: nil, exitCode: 64),
                Case(arguments: ["probe", "--json", "--file", home.path + "/no-such-file"], schema: nil, exitCode: 66),
                Case(arguments: ["inbox", "fetch", "--json"], schema: "inbox-fetch", exitCode: 0, server: server),
                Case(arguments: ["inbox", "fetch", "--json"], schema: nil, exitCode: 69, server: closed),
                Case(arguments: ["inbox", "list", "--json"], schema: "inbox-list", exitCode: 0),
                Case(arguments: ["inbox", "sources", "--json"], schema: "inbox-sources", exitCode: 0),
                Case(arguments: ["inbox", "thread", "--json", "no-such-uid"], schema: nil, exitCode: 69),
                Case(arguments: ["send", "--json", "--to", "ann@conn.example", "--subject", "s", "--text", "t"], schema: "outbox-message", exitCode: 0, server: server),
                Case(arguments: ["send", "--json", "--to", "ann@conn.example", "--subject", "queued", "--text", "t"], schema: "outbox-message", exitCode: 0, server: closed),
                Case(arguments: ["send", "--json", "--to", "not an address", "--subject", "s", "--text", "t"], schema: nil, exitCode: 64, server: server),
                Case(arguments: ["send", "--json", "--to", "a@b.cc", "--subject", "s", "--file", home.path + "/no-such-file"], schema: nil, exitCode: 66, server: server),
                Case(arguments: ["outbox", "list", "--json", "--all"], schema: "outbox-list", exitCode: 0),
                Case(arguments: ["outbox", "flush", "--json"], schema: "outbox-flush", exitCode: 0, server: server),
                Case(arguments: ["outbox", "flush", "--json"], schema: nil, exitCode: 78),
                Case(arguments: ["outbox", "show", "--json", "ffffffff"], schema: nil, exitCode: 69),
                // After the flushes: a request left queued would keep them waiting.
                Case(arguments: ["request", "--json", "\(closed.absoluteString)/items", "--body", "{}"], schema: "outbox-message", exitCode: 0),
                Case(arguments: ["request", "--json", "-X", "GET", "\(closed.absoluteString)/items"], schema: nil, exitCode: 64),
                Case(arguments: ["clock-offset", "--json", "-v"], schema: "clock-offset", exitCode: 0, server: server),
                Case(arguments: ["clock-offset", "--json", "--convert", "2026-11-23T10:00:00.432Z"], schema: "clock-offset-convert", exitCode: 0, server: server),
                Case(arguments: ["clock-offset", "--json"], schema: nil, exitCode: 69, server: closed),
                Case(arguments: ["config", "show", "--json"], schema: "config-show", exitCode: 0),
                Case(arguments: ["config", "show", "--json"], schema: "config-show", exitCode: 0, server: server),
                Case(arguments: ["config", "path", "--json"], schema: "config-path", exitCode: 0),
                Case(arguments: ["config", "get", "--json", "email"], schema: "config-get", exitCode: 1),
                Case(arguments: ["config", "get", "--json", "server"], schema: "config-get", exitCode: 0, server: server),
                Case(arguments: ["config", "get", "--json", "no-such-key"], schema: nil, exitCode: 64),
                Case(arguments: ["config", "profiles", "--json"], schema: "config-profiles", exitCode: 0),
                Case(arguments: ["config", "edit", "--json"], schema: "config-edit", exitCode: 0, env: ["EDITOR": "true"]),
                Case(arguments: ["config", "init", "--json", "--email", "ann@conn.example"], schema: "config-init", exitCode: 0),
                Case(arguments: ["config", "init", "--json"], schema: nil, exitCode: 64),
                Case(arguments: ["config", "set", "--json", "--profile", "work", "server", "http://127.0.0.1:1"], schema: "config-set", exitCode: 0),
                Case(arguments: ["config", "set", "--json", "timeout", "later"], schema: nil, exitCode: 78),
                Case(arguments: ["config", "profiles", "--json"], schema: "config-profiles", exitCode: 0),
                Case(arguments: ["plugins", "list", "--json"], schema: "plugins-list", exitCode: 0),
                Case(arguments: ["config", "show", "--json", "--config", home.path + "/missing.yaml"], schema: nil, exitCode: 78),
            ], home: home)
            // Messages that exist: show, the thread, delete.
            let listed = try await home.conn(["outbox", "list", "--json", "--all"])
            let messages = try #require(try listed.json()["messages"] as? [[String: Any]])
            let id = try #require(messages.last?["id"] as? String)
            let inbox = try await home.conn(["inbox", "list", "--json"])
            let conversations = try #require(try inbox.json()["conversations"] as? [[String: Any]])
            let root = try #require(conversations.first?["rootUid"] as? String)
            try await check([
                Case(arguments: ["outbox", "show", "--json", id], schema: "outbox-message", exitCode: 0),
                Case(arguments: ["inbox", "thread", "--json", root], schema: "inbox-thread", exitCode: 0),
                Case(arguments: ["outbox", "delete", "--json", "--yes", id], schema: "outbox-delete", exitCode: 0),
            ], home: home)
        }
    }

    @Test("login and logout: signed in (config show with the sign-in), refused 77, no password 64, signed out, not signed in")
    func signIn() async throws {
        let home = try TemporaryDirectory()
        try await ServerProcess.with(["--account", "ann@conn.example:pw-123"]) { server in
            try await check([
                Case(arguments: ["login", "--json", "--email", "ann@conn.example", "--password-stdin"], schema: "login", exitCode: 0, server: server, input: "pw-123\n"),
                Case(arguments: ["config", "show", "--json"], schema: "config-show", exitCode: 0, server: server),
                Case(arguments: ["login", "--json", "--email", "ann@conn.example", "--password-stdin"], schema: nil, exitCode: 77, server: server, input: "wrong\n"),
                Case(arguments: ["login", "--json", "--email", "ann@conn.example"], schema: nil, exitCode: 64, server: server),
                Case(arguments: ["logout", "--json"], schema: "logout", exitCode: 0, server: server),
                Case(arguments: ["logout", "--json"], schema: "logout", exitCode: 0, server: server),
            ], home: home)
        }
    }

    @Test("watch's JSON Lines and the REPL's answers, up and down")
    func streams() async throws {
        let home = try TemporaryDirectory()
        let closed = URL(string: "http://127.0.0.1:\(try HTTPPorts.closed())")!
        // A message waiting, so that --flush-outbox has a pass to report.
        _ = try await home.conn(["send", "--to", "ann@conn.example", "--subject", "s", "--text", "t"], server: closed)
        try await ServerProcess.with { server in
            try await check([
                // Never reached: the watch runs its 3 s and stops with 75, every event on the way.
                Case(arguments: ["watch", "--json", "--no-internet", "--flush-outbox", "--details", "--until", "portal", "--timeout", "3s"],
                     schema: "watch-event", exitCode: 75, server: server),
                Case(arguments: ["watch", "--json", "--no-internet", "--until", "online", "--timeout", "2s"], schema: "watch-event", exitCode: 75, server: closed),
                Case(arguments: ["repl", "--json"], schema: "repl-status", exitCode: 0, server: server, input: "status\nack\nrefresh\ndisconnect\nconnect\n"),
                Case(arguments: ["repl", "--json", "--no-link"], schema: "repl-status", exitCode: 69, server: closed, input: "status\n"),
                Case(arguments: ["repl", "--json"], schema: nil, exitCode: 64, server: server, input: "no-such-command\n"),
            ], home: home)
        }
        let watched = try await home.conn(["watch", "--json", "--no-internet", "--flush-outbox", "--until", "portal", "--timeout", "3s"], server: closed)
        #expect(watched.standardOutput.contains(#""type":"baseline""#))

        // The agent's log: run against a server, with a message to deliver, until it reports the
        // delivery, then SIGTERM (its own exit, 0). A fixed two seconds was not always enough on
        // a loaded machine: the first pass came after the SIGTERM.
        try await ServerProcess.with { server in
            let queued = try await home.conn(["send", "--to", "ann@conn.example", "--subject", "s", "--text", "t", "--json"], server: closed)
            // Queued for the closed port; moved to this server so the agent has it to deliver.
            if let id = try? queued.json()["id"] as? String { _ = try await home.conn(["outbox", "retarget", id], server: server) }
            let environment = home.environment.merging(["CONN_SERVER": server.absoluteString]) { $1 }
            let agent = try JSONLinesProcess(ConnProcess.connPath, ["agent", "--json", "--no-internet", "--interval", "1s"], environment: environment)
            let delivered = try await agent.await(30) { $0["type"] as? String == "outbox" }
            #expect(delivered != nil, "\(agent.standardOutput)\(agent.errorOutput)")
            #expect(await agent.stop() == 0, "\(agent.errorOutput)")
            let stopped = try await agent.await(10) { $0["type"] as? String == "stopped" }
            #expect(stopped != nil, "\(agent.standardOutput)")
            let problems = try await JSONSchemaCheck.violations(of: agent.standardOutput, schema: "agent-event")
            #expect(problems.isEmpty, "\(problems)")
        }
    }
}
