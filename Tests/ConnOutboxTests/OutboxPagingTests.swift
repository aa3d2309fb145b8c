import ConnCore
import ConnTestSupport
import Foundation
import Testing

/// `conn outbox list --limit N --after ID`: a long queue a page at a time, with the real binary
/// and the real SQLite outbox (filled as 25 queued messages would leave it).
@Suite("conn outbox list a page at a time")
struct OutboxPagingTests {
    let home: TemporaryDirectory

    init() throws { home = try TemporaryDirectory() }

    func fill(_ count: Int) async throws {
        _ = try await home.conn(["outbox", "list"])  // creates the database
        let fill = try await ConnProcess.run("/usr/bin/env", ["python3", JSONSchemaCheck.repositoryRoot.path + "/bench/lib/fill-outbox.py",
                                                              home.path + "/data/conn/conn.sqlite", String(count), "page"],
                                             environment: ProcessInfo.processInfo.environment)
        #expect(fill.exitCode == 0, "\(fill.standardError)")
    }

    func page(_ arguments: [String]) async throws -> (subjects: [String], next: String?) {
        let listed = try await home.conn(["outbox", "list", "--json"] + arguments)
        #expect(listed.exitCode == 0, "\(listed.standardError)")
        let problems = try await JSONSchemaCheck.violations(of: listed.standardOutput, schema: "outbox-list")
        #expect(problems.isEmpty, "\(problems)")
        let json = try listed.json()
        let messages = try #require(json["messages"] as? [[String: Any]])
        return (messages.compactMap { $0["subject"] as? String }, json["next"] as? String)
    }

    @Test("pages of 10 over 25 items: 10, 10, 5, each next where the last page ended, together the whole list in order; the text names the next command")
    func pagesChain() async throws {
        try await fill(25)
        let whole = try await page([])
        #expect(whole.subjects == (0..<25).map { "page-\($0)" } && whole.next == nil)
        var seen: [String] = []
        var after: String?
        var sizes: [Int] = []
        repeat {
            let next = try await page(["--limit", "10"] + (after.map { ["--after", $0] } ?? []))
            seen += next.subjects
            sizes.append(next.subjects.count)
            after = next.next
        } while after != nil && sizes.count < 5
        #expect(sizes == [10, 10, 5] && seen == whole.subjects, "\(sizes) \(seen)")

        let text = try await home.conn(["outbox", "list", "--limit", "10"])
        #expect(text.exitCode == 0)
        #expect(text.standardOutput.components(separatedBy: "page-").count - 1 == 10, "\(text.standardOutput)")
        let note = try #require(text.standardError.firstMatch(of: /more after this page: conn outbox list --limit 10 --after ([0-9a-f-]{36})/))
        let rest = try await home.conn(["outbox", "list", "--limit", "100", "--after", String(note.1)])
        #expect(rest.standardOutput.contains("page-10") && !rest.standardOutput.contains("page-9 "), "\(rest.standardOutput)")
        #expect(!rest.standardError.contains("more after"), "\(rest.standardError)")
    }

    @Test("a bad --limit is 64 naming the range; an --after that names nothing is 69, one that is not an id 64; nothing listed")
    func badPages() async throws {
        try await fill(3)
        for limit in ["0", "-1", "1000001"] {
            let outcome = try await home.conn(["outbox", "list", "--limit", limit])
            #expect(outcome.exitCode == 64 && outcome.standardOutput.isEmpty, "\(limit): \(outcome.standardError)")
        }
        #expect(try await home.conn(["outbox", "list", "--limit", "0"]).standardError.contains("give 1 to 1000000"))
        let gone = try await home.conn(["outbox", "list", "--after", "00000000"])
        #expect(gone.exitCode == 69 && gone.standardOutput.isEmpty && gone.standardError.contains("no outbox message with id '00000000'"))
        let notAnID = try await home.conn(["outbox", "list", "--after", "page-1"])
        #expect(notAnID.exitCode == 64 && notAnID.standardError.contains("is not an outbox id"))
    }
}
