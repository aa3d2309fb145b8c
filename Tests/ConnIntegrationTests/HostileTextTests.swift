import ConnTestSupport
import Foundation
import Testing

/// Text from outside never reaches the terminal raw: a hostile server puts escape sequences
/// (CSI, OSC 0/8/52, DCS), C1 controls, bidi controls, NUL, CR, BS and line separators into every
/// field it controls, and every command that prints them — data on stdout, errors and logs on
/// stderr — must print none of them.
@Suite("hostile text on every output path")
struct HostileTextTests {
    static let corpus = [
        "\u{1B}[31mred\u{1B}[0m", "\u{1B}[8mhidden", "\u{1B}[2J", "\u{1B}]0;pwned\u{07}",
        "\u{1B}]8;;http://evil.example/\u{1B}\\link\u{1B}]8;;\u{1B}\\", "\u{1B}]52;c;ZWNobyBwd25lZA==\u{07}", "\u{1B}P1$qm\u{1B}\\",
        "\u{9B}31m", "\u{9D}0;x\u{9C}", "\u{85}", "\u{202E}evil", "\u{2066}", "\u{200F}", "\u{200E}", "\u{061C}",
        "nul\u{0}after", "cr\rback", "bs\u{08}", "bel\u{07}", "line\u{2028}para\u{2029}", "del\u{7F}",
    ].joined(separator: " ")

    /// Scalars that must never appear in what conn prints (tab and newline are fine).
    static func forbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A: false
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x200E, 0x200F, 0x061C, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: true
        default: false
        }
    }

    /// `dataOnStdout`: stdout carries a fetched body as it came (`conn get` into a pipe, as curl's):
    /// only stderr is the terminal's.
    static func expectClean(_ outcome: ProcessOutcome, _ what: String, dataOnStdout: Bool = false) {
        for (stream, text) in [("stdout", dataOnStdout ? "" : outcome.standardOutput), ("stderr", outcome.standardError)] {
            let bad = text.unicodeScalars.filter(forbidden)
            #expect(bad.isEmpty, "\(what) printed \(bad.map { String(format: "U+%04X", $0.value) }) on \(stream): \(text.debugDescription.prefix(600))")
        }
    }

    static func inboxDocument() throws -> String {
        func email(_ uid: String, parent: String) -> [String: String] {
            ["uid": uid, "from": "evil\(corpus)@x.cc", "to": "me@x.cc \(corpus)", "subject": "subject \(corpus)",
             "text": "text \(corpus)", "responseToUid": parent, "dateTime": "Today \(corpus)"]
        }
        // Two uids that share a prefix, so a prefix is ambiguous and the error lists both.
        let inbox = [email("x\u{1B}]0;pwned\u{07}1", parent: ""), email("x\u{1B}]0;pwned\u{07}2", parent: "x\u{1B}]0;pwned\u{07}1"),
                     email("orphan\u{202E}", parent: "missing\u{1B}[8m")]
        return String(decoding: try JSONSerialization.data(withJSONObject: ["inbox": inbox]), as: UTF8.self)
    }

    @Test("inbox fetch, list, thread (and the ambiguous-uid error), send's rejection, outbox list and show, probe, -v logs, config show")
    func everyPath() async throws {
        let apiError = String(decoding: try JSONSerialization.data(withJSONObject: ["error": ["code": "bad\(Self.corpus)", "message": "refused \(Self.corpus)"]]), as: UTF8.self)
        let routes: [BadServer.Route] = [
            .answer("GET", "/inbox", status: 200, headers: [["ETag", "\"e1\""]], body: try Self.inboxDocument()),
            .answer("POST", "/messages", status: 422, body: apiError),
            .answer("GET", "/health", status: 503, body: apiError),
            .answer("GET", "/time", status: 500, body: apiError),
        ]
        try await BadServer.with(routes) { server in
            let home = try TemporaryDirectory()
            let environment = home.environment.merging(["CONN_SERVER": server.url.absoluteString, "CONN_EMAIL": "me\(Self.corpus.replacingOccurrences(of: "\u{0}", with: ""))"]) { $1 }
            func conn(_ arguments: [String]) async throws -> ProcessOutcome {
                let outcome = try await ConnProcess.run(ConnProcess.connPath, arguments, environment: environment)
                Self.expectClean(outcome, arguments.joined(separator: " "))
                return outcome
            }
            let fetched = try await conn(["inbox", "fetch", "-v"])
            #expect(fetched.exitCode == 0, "\(fetched.standardError)")
            let listed = try await conn(["inbox", "list"])
            #expect(listed.standardOutput.contains("subject"), "\(listed.standardOutput)")
            // Each command did its work (its exit status, its words), so its clean output proves something.
            let all = try await conn(["inbox", "list", "--all"])
            #expect(all.exitCode == 0 && all.standardOutput.contains("subject red hidden"), "\(all.standardOutput)")
            let ambiguous = try await conn(["inbox", "thread", "x"])
            #expect(ambiguous.exitCode == 64 && ambiguous.standardError.contains("matches several messages: x1, x2"), "\(ambiguous.standardError)")
            let thread = try await conn(["inbox", "thread", "orphan"])
            #expect(thread.exitCode == 0, "\(thread.standardError)")
            // NUL is shown, and does not cut the field short.
            #expect(thread.standardOutput.contains("nul\u{2400}after"), "\(thread.standardOutput)")
            let flat = try await conn(["inbox", "thread", "orphan", "--flat"])
            #expect(flat.exitCode == 0 && flat.standardOutput.contains("text red hidden"), "\(flat.standardOutput)")

            let sent = try await conn(["send", "--to", "a@b.cc", "--subject", "s", "--text", "t", "-v"])
            #expect(sent.standardError.contains("refused"), "\(sent.standardError)")
            let outbox = try await conn(["outbox", "list"])
            #expect(outbox.exitCode == 0 && outbox.standardOutput.contains("failed (rejected)") && outbox.standardOutput.contains("last error: 422: refused red"),
                    "\(outbox.standardOutput)")
            let shown = try await conn(["outbox", "show", try await Self.firstOutboxID(environment)])
            #expect(shown.standardOutput.contains("refused"), "\(shown.standardOutput)")
            let flushed = try await conn(["outbox", "flush", "-v"])
            #expect(flushed.exitCode == 0 && flushed.standardOutput.contains("nothing to deliver"), "\(flushed.standardOutput)")
            let verbose = try await conn(["probe", "-v"])
            #expect(verbose.exitCode == 69 && verbose.standardOutput.contains("answered 503") && verbose.standardOutput.contains("tcp   ok"), "\(verbose.standardOutput)")
            let probed = try await conn(["probe"])
            #expect(probed.exitCode == 69 && probed.standardOutput.contains("state: serverUnreachable (httpStatus"), "\(probed.standardOutput)")
            let clock = try await conn(["clock-offset", "--method", "json", "--samples", "1"])
            #expect(clock.exitCode == 75 && clock.standardError.contains("answered 500"), "\(clock.standardError)")
            let config = try await conn(["config", "show"])
            #expect(config.exitCode == 0 && config.standardOutput.contains("mered hidden"), "\(config.standardOutput)")
        }
    }

    @Test("any back end: request's refusal, outbox list and show of its kept answer (headers, body), get's notes and the copy's JSON, cache list, inbox sources (a hostile ETag)")
    func anyBackEndPaths() async throws {
        let apiError = String(decoding: try JSONSerialization.data(withJSONObject: ["error": ["code": "bad\(Self.corpus)", "message": "refused \(Self.corpus)"]]), as: UTF8.self)
        // HTTP parsers refuse control bytes in a header (NIO's: "invalid character in header"), but
        // not bytes over 0x7F: the UTF-8 of a C1 CSI, bidi overrides and a line separator, each byte
        // one Latin-1 character here, as the server writes the head.
        let hostileHeader = String(String.UnicodeScalarView(Array("\u{202E}evil \u{9B}31m \u{2028} \u{200F}\u{2066}".utf8).map { Unicode.Scalar($0) }))
        let routes: [BadServer.Route] = [
            .answer("POST", "/orders", status: 422, headers: [["Location", "/o" + hostileHeader], ["ETag", "\"" + hostileHeader + "\""]], body: apiError),
            .answer("GET", "/doc", status: 200, contentType: "text/plain" + hostileHeader,
                    headers: [["ETag", "\"d" + hostileHeader + "\""], ["Cache-Control", "max-age=60"]], body: "doc \(Self.corpus)"),
            .answer("GET", "/inbox", status: 200, headers: [["ETag", "\"i" + hostileHeader + "\""]], body: try Self.inboxDocument()),
        ]
        try await BadServer.with(routes) { server in
            let home = try TemporaryDirectory()
            let environment = home.environment.merging(["CONN_SERVER": server.url.absoluteString]) { $1 }
            func conn(_ arguments: [String], dataOnStdout: Bool = false) async throws -> ProcessOutcome {
                let outcome = try await ConnProcess.run(ConnProcess.connPath, arguments, environment: environment)
                Self.expectClean(outcome, arguments.joined(separator: " "), dataOnStdout: dataOnStdout)
                return outcome
            }
            let orders = server.url.absoluteString + "/orders"
            let sent = try await conn(["request", orders, "--body", "{}", "-v"])
            #expect(sent.exitCode != 0 && (sent.standardOutput + sent.standardError).contains("422"), "\(sent.exitCode) \(sent.standardOutput) \(sent.standardError)")
            let listed = try await conn(["outbox", "list", "--all"])
            #expect(listed.exitCode == 0 && listed.standardOutput.contains("422"), "\(listed.standardOutput)")
            let id = try await Self.firstOutboxID(environment)
            let shown = try await conn(["outbox", "show", id])
            #expect(shown.exitCode == 0 && shown.standardOutput.contains("422") && shown.standardOutput.contains("refused"), "\(shown.standardOutput)")
            let shownJSON = try await conn(["outbox", "show", id, "--json"])
            #expect(try shownJSON.json()["answer"] is [String: Any], "\(shownJSON.standardOutput)")

            let doc = server.url.absoluteString + "/doc"
            let got = try await conn(["get", doc, "-v"], dataOnStdout: true)
            #expect(got.exitCode == 0 && got.standardOutput == "doc \(Self.corpus)", "the body passed on as it came: \(got.standardOutput.debugDescription) \(got.standardError)")
            let offline = try await conn(["get", doc, "--offline", "-v"], dataOnStdout: true)
            #expect(offline.exitCode == 0 && offline.standardError.contains("from the cache"), "\(offline.standardError)")
            let copy = try await conn(["get", doc, "--offline", "--json"])
            // Escaped for the terminal, the same text for a parser.
            let copyBody = try copy.json()["body"] as? String
            #expect(copy.exitCode == 0 && copyBody == "doc \(Self.corpus)", "\(copy.standardOutput)")
            let cached = try await conn(["cache", "list"])
            #expect(cached.exitCode == 0 && cached.standardOutput.contains("/doc"), "\(cached.standardOutput)")
            let cachedJSON = try await conn(["cache", "list", "--json"])
            #expect(cachedJSON.exitCode == 0, "\(cachedJSON.standardError)")

            let fetched = try await conn(["inbox", "fetch"])
            #expect(fetched.exitCode == 0, "\(fetched.standardError)")
            let sources = try await conn(["inbox", "sources"])
            #expect(sources.exitCode == 0 && sources.standardOutput.contains("/inbox"), "\(sources.standardOutput)")
            let sourcesJSON = try await conn(["inbox", "sources", "--json"])
            #expect(sourcesJSON.exitCode == 0, "\(sourcesJSON.standardError)")
            let inboxJSON = try await conn(["inbox", "list", "--json"])
            #expect(inboxJSON.exitCode == 0, "\(inboxJSON.standardError)")
        }
    }

    static func firstOutboxID(_ environment: [String: String]) async throws -> String {
        let listed = try await ConnProcess.run(ConnProcess.connPath, ["outbox", "list", "--json", "--all"], environment: environment)
        let messages = try #require(try listed.json()["messages"] as? [[String: Any]])
        return try #require(messages.first?["id"] as? String)
    }
}
