import ConnTestSupport
import Foundation
import Testing

/// The examples of the README and of every guide (docs/guide/*.md) run: every `$ conn …` line of
/// a document's console blocks that can run offline or against the local conn-server is run in
/// bash, in order, in a fresh home per document, against a server with the documents' generated
/// inbox, and what it prints is compared with what the document shows. A README or a guide that
/// drifts from the program fails here.
///
/// An expected line is a template: a measurement (a number before `ms` or `s`, or after `±`)
/// matches any number, a message id any id, an ISO timestamp any timestamp, a run of blanks any
/// run, `…` anything; a line that is only `…` stands for any number of lines; every other number
/// is itself. The documents' server (http://127.0.0.1:8080) is the test's.
@Suite("README and guide examples")
struct ReadmeExamplesTests {
    struct Example: CustomStringConvertible {
        var command: String
        var expected: [String]
        var document: String
        var line: Int
        var description: String { "\(document):\(line): $ \(command)" }
    }

    /// The README, then each guide, as paths from the repository's root.
    static let documents: [String] = {
        let guides = (try? FileManager.default.contentsOfDirectory(
            atPath: JSONSchemaCheck.repositoryRoot.appendingPathComponent("docs/guide").path)) ?? []
        return ["README.md"] + guides.filter { $0.hasSuffix(".md") }.sorted().map { "docs/guide/" + $0 }
    }()

    /// Examples that cannot run here, each with the reason.
    static let notRun: [(String, String)] = [
        ("conn config edit", "opens an editor (ConfigWritingTests drives it in tmux)"),
        ("https://example.com", "needs a host on the internet"),
        ("pool.ntp.org", "needs an NTP server on the internet"),
        ("--internet", "needs the internet"),
        ("db.internal", "needs hosts of the reader's network"),
        ("targets.txt", "needs the reader's file of targets"),
        ("./run-integration-tests", "runs the reader's program"),
        ("make deploy", "runs the reader's program"),
        ("notify-send", "needs a desktop"),
        ("$ conn watch", "runs until stopped (the watch tests cover each of its lines)"),
        ("conn watch --json", "runs until stopped (the watch tests cover it)"),
        ("--flush-outbox", "runs until stopped (the watch tests cover it)"),
        ("$ conn repl", "interactive (the REPL tests drive it in tmux)"),
    ]

    /// Whether `command` holds `word` as a whole: `--internet` is not in `--internet-url 'http://…'`.
    /// A word written `$ …` is a whole command: `$ conn repl` is not `printf … | conn repl`.
    static func mentions(_ command: String, _ word: String) -> Bool {
        if word.hasPrefix("$ ") { return command == word.dropFirst(2) }
        // ICU's expressions (Swift's Regex has no lookbehind).
        let expression = try! NSRegularExpression(pattern: "(?<![\\w-])" + NSRegularExpression.escapedPattern(for: word) + "(?![\\w-])")
        return expression.firstMatch(in: command, range: NSRange(command.startIndex..., in: command)) != nil
    }

    static func examples(in document: String) throws -> [Example] {
        let text = try String(contentsOf: JSONSchemaCheck.repositoryRoot.appendingPathComponent(document), encoding: .utf8)
        var examples: [Example] = []
        var inConsole = false
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("```") {
                inConsole = line == "```console"
                continue
            }
            guard inConsole else { continue }
            if line.hasPrefix("$ ") {
                // A trailing comment (two blanks, then #) is the document's, not the command's.
                var command = String(line.dropFirst(2))
                if let comment = command.range(of: #"\s{2,}# .*$"#, options: .regularExpression) { command.removeSubrange(comment) }
                examples.append(Example(command: command.trimmingCharacters(in: .whitespaces), expected: [], document: document, line: index + 1))
            } else if !examples.isEmpty {
                examples[examples.count - 1].expected.append(String(line))
            }
        }
        return examples
    }

    /// The regular expression of one expected line. What varies from run to run matches its
    /// kind: a message id any id, a measurement (a number before `ms` or `s`, after `±`, or the
    /// samples kept of `N/8 samples`) any number, an ISO timestamp any timestamp; every other number is itself (a count, a uid, a
    /// status), so an example that says "60 new" fails when 59 are.
    static func pattern(_ template: String) -> String {
        let id: Character = "\u{E000}", measurement: Character = "\u{E001}", moment: Character = "\u{E002}", duration: Character = "\u{E003}"
        var marked = template.replacing(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/) { _ in String(moment) }
        marked = marked.replacing(/\b[0-9a-f]{8}\b/) { _ in String(id) }
        // How many samples the clock filter kept varies too (5/8): the number taken does not.
        // A duration in either unit: a loaded machine prints "(1.04s)" where the page shows "(111ms)".
        marked = marked.replacing(/[+\-±]?\d+(?:\.\d+)? ?(?:ms|s)\b/) { _ in String(duration) }
        marked = marked.replacing(/±\d+(?:\.\d+)?|\d+(?=\/\d+ samples)/) { _ in String(measurement) }
        var pattern = ""
        for character in marked {
            switch character {
            case id: pattern += "[0-9a-f]{8}"
            case measurement: pattern += #"[+\-±]?\d+(?:\.\d+)?"#
            case duration: pattern += #"[+\-±]?\d+(?:\.\d+)? ?(?:ms|s)\b"#
            case moment: pattern += #"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z"#
            case "…": pattern += ".*"
            case " ": pattern += pattern.hasSuffix(" +") ? "" : " +"
            default: pattern += NSRegularExpression.escapedPattern(for: String(character))
            }
        }
        return pattern
    }

    /// Whether `actual` (lines) follows the templates, in order.
    static func matches(_ actual: [String], _ templates: [String]) -> Bool { align(actual, templates) != nil }

    /// Each template paired with the line it matched (`…` lines pair with nothing), or nil.
    static func align(_ actual: [String], _ templates: [String]) -> [(template: String, line: String)]? {
        guard let template = templates.first else { return actual.isEmpty ? [] : nil }
        if template.trimmingCharacters(in: .whitespaces) == "…" {
            for skipped in 0...actual.count {
                if let rest = align(Array(actual.dropFirst(skipped)), Array(templates.dropFirst())) { return rest }
            }
            return nil
        }
        guard let line = actual.first, line.wholeMatch(of: try! Regex(pattern(template))) != nil,
            let rest = align(Array(actual.dropFirst()), Array(templates.dropFirst()))
        else { return nil }
        return [(template, line)] + rest
    }

    /// The message ids of a line, in order.
    static func ids(_ line: String) -> [String] { line.matches(of: /\b[0-9a-f]{8}\b/).map { String($0.output) } }

    @Test("every example that can run here prints what its document shows", arguments: documents)
    func examplesRun(document: String) async throws {
        let home = try TemporaryDirectory()
        let examples = try Self.examples(in: document)
        // The documents' server: 60 generated e-mails, and a clock 1234 ms ahead (its clock-offset).
        try await ServerProcess.with(["--generate", "60", "--skew-ms", "1234"]) { server in
            let binaries = URL(fileURLWithPath: ConnProcess.connPath).deletingLastPathComponent().path
            var environment = home.environment
            environment["PATH"] = binaries + ":/usr/bin:/bin"
            environment["COLUMNS"] = "100"
            environment["LANG"] = "C.UTF-8"  // a reader's terminal: the trees drawn with box characters
            var ran = 0
            var ids: [String: String] = [:]
            for example in examples {
                if Self.notRun.contains(where: { Self.mentions(example.command, $0.0) }) { continue }  // the reason is the list's
                var command = example.command.replacingOccurrences(of: "http://127.0.0.1:8080", with: server.absoluteString)
                for (shown, real) in ids {
                    for length in stride(from: 8, through: 4, by: -1) {
                        command = command.replacing(try Regex("\\b\(shown.prefix(length))\\b"), with: String(real.prefix(length)))
                    }
                }
                if command.hasPrefix("export ") {
                    for assignment in command.dropFirst(7).split(separator: " ") {
                        let parts = assignment.split(separator: "=", maxSplits: 1).map(String.init)
                        if parts.count == 2 { environment[parts[0]] = parts[1] }
                    }
                    continue
                }
                let outcome = try await ConnProcess.run("/bin/bash", ["-c", command], environment: environment)
                ran += 1
                let expected = example.expected.map { $0.replacingOccurrences(of: "http://127.0.0.1:8080", with: server.absoluteString) }
                func lines(_ text: String) -> [String] {
                    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                    if lines.last == "" { lines.removeLast() }
                    return lines
                }
                // Diagnostics (stderr, "conn: …") count where the document shows one, after the output.
                let showsDiagnostics = expected.contains { $0.hasPrefix("conn: ") }
                let actual = lines(outcome.standardOutput) + (showsDiagnostics ? lines(outcome.standardError) : [])
                #expect(outcome.exitCode == 0, "\(example): exit \(outcome.exitCode)\n\(outcome.standardError)")
                if expected.isEmpty { continue }
                guard let pairs = Self.align(actual, expected) else {
                    Issue.record("\(example)\n--- the document shows:\n\(expected.joined(separator: "\n"))\n--- it printed:\n\(actual.joined(separator: "\n"))")
                    continue
                }
                // The document's message ids stand for the ones printed: later commands that name
                // one (`outbox show 4f9d`) get the real one.
                for pair in pairs { for (shown, real) in zip(Self.ids(pair.template), Self.ids(pair.line)) { ids[shown] = real } }
            }
            // The README's tour is a dozen commands; a guide with none run here would be untested.
            #expect(ran >= (document == "README.md" ? 8 : 1), "only \(ran) examples of \(document) ran")
        }
    }

    @Test("each example left out is left out for a reason of the list, matched as a whole word; no reason is left over; at least 5 guides")
    func leftOut() throws {
        let examples = try Self.documents.flatMap { try Self.examples(in: $0) }
        #expect(Self.documents.count >= 6, "\(Self.documents)")
        #expect(examples.count >= 60, "found \(examples.count) examples")
        for (word, reason) in Self.notRun {
            #expect(examples.contains { Self.mentions($0.command, word) }, "no example needs leaving out for '\(word)' (\(reason)): take it off the list")
        }
        #expect(Self.mentions("conn probe --internet", "--internet") && !Self.mentions("conn probe --internet-url http://x/", "--internet"))
        #expect(Self.mentions("conn watch --json", "conn watch") && !Self.mentions("conn watchers", "conn watch"))
        #expect(Self.mentions("conn repl", "$ conn repl") && !Self.mentions("printf 'probe\\n' | conn repl", "$ conn repl"))
    }

    @Test("the templates: measurements, ids, timestamps, blanks and … match what they stand for; counts and other numbers only themselves")
    func templates() {
        #expect(Self.matches(["fetched 60 messages: 60 new (12 ms)"], ["fetched 60 messages: 60 new (111 ms)"]))
        #expect(Self.matches(["fetched 60 messages: 60 new (1.04s)"], ["fetched 60 messages: 60 new (111ms)"]))
        #expect(!Self.matches(["fetched 59 messages: 59 new (12 ms)"], ["fetched 60 messages: 60 new (111 ms)"]))
        #expect(!Self.matches(["✓ x  reachable  [HTTP 200 · tcp 1ms]"], ["✓ x  reachable  [HTTP 204 · tcp 0.21ms]"]))
        #expect(Self.matches(["2026-11-27T20:45:10.198Z"], ["2026-11-22T20:45:10.198Z"]))
        #expect(Self.matches(["-0.4 ms ±12 ms · 8/8 samples"], ["+1233.7 ms ±0.8 ms · 8/8 samples"]))
        #expect(Self.matches(["+1.5 ms ±0.8 ms · 5/8 samples"], ["+1233.7 ms ±0.8 ms · 8/8 samples"]))
        #expect(!Self.matches(["+1.5 ms ±0.8 ms · 5/9 samples"], ["+1233.7 ms ±0.8 ms · 8/8 samples"]))
        #expect(Self.matches(["4f1c2a9e  sent  to a@b.cc"], ["9d3310ab  sent  to a@b.cc"]))
        #expect(Self.matches(["a", "b", "c", "end"], ["a", "  …", "end"]))
        #expect(Self.matches(["+1.5 ms ±0.8 ms"], ["+1233.7 ms ±0.8 ms"]))
        #expect(!Self.matches(["fetched 7 letters"], ["fetched 60 messages"]))
        #expect(!Self.matches(["a", "extra"], ["a"]))
    }
}
