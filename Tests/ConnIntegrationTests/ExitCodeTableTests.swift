import ConnCore
import ConnTestSupport
import Foundation
import Testing

/// The exit-code table of docs/guide/scripting.md is the contract: this test reads it, checks it against
/// `ExitStatus` and `conn --help`, and makes the real binary end with each code it documents, so
/// the docs and the behaviour cannot drift apart again.
@Suite("the exit-code table")
struct ExitCodeTableTests {
    /// The rows of the table under "Exit codes follow sysexits(3)": code and name.
    static func documentedTable() throws -> [(code: Int32, name: String)] {
        let guide = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/guide/scripting.md")
        let text = try String(contentsOf: guide, encoding: .utf8)
        let section = try #require(text.range(of: "Exit codes follow sysexits(3):"))
        var rows: [(Int32, String)] = []
        for line in text[section.upperBound...].split(separator: "\n").dropFirst(2) {
            guard line.hasPrefix("|") else { break }
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 2, let code = Int32(cells[0]) else { continue }
            rows.append((code, cells[1]))
        }
        return rows
    }

    /// Codes no command line here can produce, and where they are tested instead.
    static let triggeredElsewhere: [Int32: String] = [
        0: "success: every other test",
        70: "a bug in conn: nothing should produce it",
    ]

    @Test("the table is ExitStatus, and conn --help lists every code")
    func tableMatchesTheCode() async throws {
        let table = try Self.documentedTable()
        #expect(table.map(\.code) == ExitStatus.allCases.map(\.rawValue), "\(table)")
        #expect(table.map(\.name) == ExitStatus.allCases.map(\.name))
        // Help wraps its lines: compare with the white space folded.
        let help = try await TemporaryDirectory().conn(["--help"]).standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for (code, _) in table where code != 0 {
            #expect(help.contains("\(code) "), "conn --help does not list \(code)")
        }
    }

    @Test("every documented code comes out of the real binary where the table says")
    func everyCodeHappens() async throws {
        let home = try TemporaryDirectory()
        let closed = URL(string: "http://127.0.0.1:\(try HTTPPorts.closed())")!
        let badTargets = try home.write("targets", "example.com:70000\n")
        let refusing: [BadServer.Route] = [.answer("GET", "/inbox", status: 401, body: #"{"error":{"code":"unauthorized","message":"no"}}"#)]
        var observed: [Int32: [String]] = [:]
        /// Runs a command line that must end with `code` (each tied to its own, so two swapped codes fail).
        func run(_ code: Int32, _ arguments: [String], server: URL? = nil, env: [String: String] = [:]) async throws {
            let outcome = try await home.conn(arguments, server: server, env: env)
            #expect(outcome.exitCode == code, "\(arguments.joined(separator: " ")): \(outcome.exitCode), not \(code): \(outcome.standardError)")
            observed[outcome.exitCode, default: []].append(arguments.joined(separator: " "))
        }
        try await run(64, ["probe", "--concurrency", "0"])
        try await run(65, ["probe", "--file", badTargets])
        try await run(66, ["send", "--to", "a@b.cc", "--subject", "s", "--file", home.path + "/nonexistent"])
        try await run(69, ["probe", "127.0.0.1:1"])
        try await run(74, ["outbox", "list"], env: ["XDG_DATA_HOME": badTargets + "/data"])  // its directory
        try await run(75, ["watch", "--no-internet", "--no-link", "--until", "online", "--timeout", "1s"], server: closed)
        try await BadServer.with(refusing) { server in try await run(77, ["inbox", "fetch"], server: server.url) }
        try await run(78, ["config", "show"], env: ["CONN_CONFIG": home.path + "/missing.yaml"])
        for (code, name) in try Self.documentedTable() where Self.triggeredElsewhere[code] == nil {
            #expect(observed[code] != nil, "docs/guide/scripting.md documents \(code) (\(name)) but no command line here ended with it: \(observed)")
        }
        #expect(Set(observed.keys).isSubset(of: Set(ExitStatus.allCases.map(\.rawValue))), "undocumented codes: \(observed)")
    }
}
