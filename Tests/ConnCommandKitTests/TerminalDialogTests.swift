import ArgumentParser
import ConnAccount
import ConnCommandKit
import ConnConfigCommands
import ConnCore
import ConnInbox
import ConnOutbox
import ConnSend
import ConnTestSupport
import Foundation
import Testing

/// Questions, passwords, the progress line and the pager go through the command's context, like
/// its output: here each is driven in-process, with typed answers given in advance and a sink
/// that records what a terminal would have shown.
@Suite("prompts, progress and the pager through the command context")
struct TerminalDialogTests {
    /// A person at a terminal: stdin, stdout and stderr all are one.
    static let terminal = TerminalFacts(standardInputIsTerminal: true, standardOutputIsTerminal: true, standardErrorIsTerminal: true, isUTF8: true)

    struct Run {
        let code: Int32
        let sink: CapturingOutputSink
        var standardOutput: String { sink.standardOutput }
        var standardError: String { sink.standardError }
    }

    func run<Command: ConnCommand>(
        _ type: Command.Type, _ arguments: [String], home: TemporaryDirectory, env: [String: String] = [:],
        input: ScriptedInput = ScriptedInput([]), terminal: TerminalFacts = Self.terminal, pages: Bool = false
    ) async throws -> Run {
        let sink = CapturingOutputSink(pages: pages)
        let code = await CommandRunner.execute(
            try type.parse(arguments), environment: home.environment.merging(env) { $1 }, sink: sink, terminal: terminal, input: input)
        return Run(code: code, sink: sink)
    }

    @Test("login asks for the address, then the password with echo off; wrong: 77 and nothing stored; no answer: 64")
    func loginPrompts() async throws {
        let home = try TemporaryDirectory()
        try await ServerProcess.with(["--account", "ann@conn.example:pw-123"]) { server in
            let wrong = ScriptedInput(["ann@conn.example", "not-it"])
            let refused = try await run(LoginCommand.self, ["--server", server.absoluteString], home: home, input: wrong)
            #expect(refused.code == 77, "\(refused.standardError)")
            let shown = try await run(ConfigShowCommand.self, ["--json", "--server", server.absoluteString], home: home, terminal: .none)
            #expect(shown.standardOutput.contains(#""signIn" : null"#) || shown.standardOutput.contains(#""signIn":null"#), "nothing stored: \(shown.standardOutput)")

            let input = ScriptedInput(["  ann@conn.example ", "pw-123"])
            let signedIn = try await run(LoginCommand.self, ["--server", server.absoluteString], home: home, input: input)
            #expect(signedIn.code == 0, "\(signedIn.standardError)")
            #expect(signedIn.standardError.hasPrefix("E-mail: Password for ann@conn.example: "), "\(signedIn.standardError)")
            #expect(input.hiddenReads == [false, true], "the address is echoed, the password is not")
            #expect(signedIn.standardOutput.contains("signed in to \(server.absoluteString) as ann@conn.example"), "\(signedIn.standardOutput)")

            // The input ends before a password: nothing is sent.
            let ended = try await run(LoginCommand.self, ["--server", server.absoluteString, "--email", "ann@conn.example"], home: home,
                                      input: ScriptedInput([]))
            #expect(ended.code == 64 && ended.standardError.contains("the password is empty"), "\(ended.standardError)")
        }
    }

    @Test("outbox delete asks before deleting: 'n' keeps the message (64, not deleted), 'y' deletes it")
    func deleteConfirmation() async throws {
        let home = try TemporaryDirectory()
        let closed = "http://127.0.0.1:\(try HTTPPorts.closed())"
        let queued = try await run(SendCommand.self, ["--server", closed, "--to", "bo@conn.example", "--subject", "Hi", "--text", "later"],
                                   home: home, terminal: .none)
        #expect(queued.code == 0, "\(queued.standardError)")
        let id = String(queued.standardOutput.prefix { $0 != " " })
        #expect(id.count == 8, "an offline send prints the message's short id first: \(queued.standardOutput)")

        let kept = try await run(OutboxDeleteCommand.self, [id], home: home, input: ScriptedInput(["n"]))
        #expect(kept.code == 64 && kept.standardError.contains("Delete 1 message (\(id.prefix(8))") && kept.standardError.contains("not deleted"),
                "\(kept.standardError)")
        let stillThere = try await run(OutboxListCommand.self, ["--json"], home: home, terminal: .none)
        #expect(stillThere.standardOutput.contains(id), "\(stillThere.standardOutput)")

        let deleted = try await run(OutboxDeleteCommand.self, [id], home: home, input: ScriptedInput([" yes "]))
        #expect(deleted.code == 0 && deleted.standardOutput == "deleted \(id.prefix(8))\n", "\(deleted.standardOutput) \(deleted.standardError)")
    }

    @Test("config init asks for the server and the address; a bad answer is refused and asked again")
    func configInitQuestions() async throws {
        let home = try TemporaryDirectory()
        let input = ScriptedInput(["ftp://nope", "http://127.0.0.1:8080", "not an address", "ann@conn.example"])
        let result = try await run(ConfigInitCommand.self, [], home: home, input: input)
        #expect(result.code == 0, "\(result.standardError)")
        #expect(input.hiddenReads == [false, false, false, false])
        let errors = result.standardError.components(separatedBy: "\n").filter { $0.contains("error:") }
        #expect(errors.count == 2 && errors[0].contains("'ftp://nope'") && errors[1].contains("'not an address'"), "\(result.standardError)")
        let text = try String(contentsOfFile: home.path + "/config/conn/config.yaml", encoding: .utf8)
        #expect(text.contains("server: http://127.0.0.1:8080") && text.contains("email: ann@conn.example"), "\(text)")
    }

    @Test("inbox fetch draws its progress line on a terminal's stderr and erases it before the summary; none with --json or in a pipe")
    func fetchProgress() async throws {
        let home = try TemporaryDirectory()
        try await ServerProcess.with(["--generate", "40"]) { server in
            let drawn = try await run(InboxFetchCommand.self, ["--server", server.absoluteString], home: home)
            #expect(drawn.code == 0, "\(drawn.standardError)")
            #expect(drawn.standardError.hasPrefix("\rfetching \(server.absoluteString)/inbox …, "), "\(drawn.standardError.debugDescription)")
            #expect(drawn.standardError.hasSuffix("\r\u{1B}[K"), "erased at the end: \(drawn.standardError.debugDescription)")
            #expect(drawn.standardOutput.contains("fetched 40 messages"), "\(drawn.standardOutput)")

            let json = try await run(InboxFetchCommand.self, ["--server", server.absoluteString, "--json", "--force"], home: home)
            let piped = try await run(InboxFetchCommand.self, ["--server", server.absoluteString, "--force"], home: home,
                                      terminal: TerminalFacts(standardInputIsTerminal: true, standardOutputIsTerminal: true,
                                                              standardErrorIsTerminal: false, isUTF8: true))
            for quiet in [json, piped] {
                #expect(quiet.code == 0 && quiet.standardError.isEmpty, "\(quiet.standardError.debugDescription)")
            }
        }
    }

    @Test("a list longer than the screen goes to the pager (CONN_PAGER); --no-pager, a short list and JSON print it")
    func pager() async throws {
        let home = try TemporaryDirectory()
        try await ServerProcess.with(["--generate", "60"]) { server in
            let fetched = try await run(InboxFetchCommand.self, ["--server", server.absoluteString], home: home, terminal: .none)
            #expect(fetched.code == 0)
            let env = ["CONN_PAGER": "my-pager -R", "LINES": "10", "COLUMNS": "100"]
            let arguments = ["--server", server.absoluteString, "--limit", "200"]
            let paged = try await run(InboxListCommand.self, arguments, home: home, env: env, pages: true)
            #expect(paged.code == 0 && paged.standardOutput.isEmpty, "\(paged.standardOutput)")
            let shown = try #require(paged.sink.paged.first)
            #expect(paged.sink.paged.count == 1 && shown.command == "my-pager -R")
            #expect(shown.text.components(separatedBy: "\n").count > 10, "\(shown.text)")

            let unpaged = try await run(InboxListCommand.self, arguments + ["--no-pager"], home: home, env: env, pages: true)
            let short = try await run(InboxListCommand.self, ["--server", server.absoluteString, "--limit", "3"], home: home, env: env, pages: true)
            let json = try await run(InboxListCommand.self, arguments + ["--json"], home: home, env: env, pages: true)
            for printed in [unpaged, short, json] {
                #expect(printed.code == 0 && printed.sink.paged.isEmpty && !printed.standardOutput.isEmpty, "\(printed.standardError)")
            }
            #expect(unpaged.standardOutput == shown.text, "--no-pager prints what the pager was given")
        }
    }
}
