import ConnTestSupport
import Foundation
import Testing

/// `inbox list`'s filters on an inbox whose answers are known: `--search` that matches (LIKE's
/// `%` and `_` taken literally), `--since` and `--until` that each leave conversations out.
@Suite("conn inbox list: filters that match")
struct InboxFilterTests {
    let home: TemporaryDirectory

    init() throws { home = try TemporaryDirectory() }

    static let inbox = """
        {"inbox": [
          {"uid": "r1", "from": "ann@x", "to": "bob@x", "subject": "Budget 2027", "text": "numbers", "responseToUid": "", "dateTime": "2026-11-20T10:00:00Z"},
          {"uid": "r1b", "from": "bob@x", "to": "ann@x", "subject": "Re: Budget 2027", "text": "50% done_x", "responseToUid": "r1", "dateTime": "2026-11-25T10:00:00Z"},
          {"uid": "r2", "from": "cy@x", "to": "ann@x", "subject": "Picnic", "text": "bring 100% juice", "responseToUid": "", "dateTime": "2026-10-01T10:00:00Z"},
          {"uid": "r3", "from": "dee@x", "to": "ann@x", "subject": "Other", "text": "nothing at all", "responseToUid": "", "dateTime": "2026-11-26T09:00:00Z"}
        ]}
        """

    /// The roots `inbox list --json --all ARGS` lists, in its order.
    func roots(_ arguments: [String]) async throws -> [String] {
        let outcome = try await home.conn(["inbox", "list", "--json", "--all"] + arguments)
        #expect(outcome.exitCode == 0, "\(arguments): \(outcome.standardError)")
        return (try outcome.json()["conversations"] as? [[String: Any]] ?? []).compactMap { $0["rootUid"] as? String }
    }

    @Test("--search finds subjects and texts of any message of a conversation, case aside; % and _ are themselves; --since and --until cut by the last activity; together they intersect")
    func filters() async throws {
        try await BadServer.with([.answer("GET", "/inbox", status: 200, body: Self.inbox)]) { server in
            let fetched = try await home.conn(["inbox", "fetch"], server: server.url)
            #expect(fetched.exitCode == 0, "\(fetched.standardError)")
        }
        #expect(try await roots([]) == ["r3", "r1", "r2"])
        #expect(try await roots(["--search", "budget"]) == ["r1"])
        #expect(try await roots(["--search", "DONE_X"]) == ["r1"])  // in the reply, not the root
        #expect(try await roots(["--search", "50%"]) == ["r1"])
        #expect(try await roots(["--search", "%"]) == ["r1", "r2"])
        #expect(try await roots(["--search", "_"]) == ["r1"])
        #expect(try await roots(["--search", "don__x"]) == [])  // `_` is not "any one character": done_x would match
        #expect(try await roots(["--since", "2026-11-24T00:00:00Z"]) == ["r3", "r1"])
        #expect(try await roots(["--until", "2026-11-24T00:00:00Z"]) == ["r2"])
        #expect(try await roots(["--since", "2026-11-01T00:00:00Z", "--until", "2026-11-26T00:00:00Z"]) == ["r1"])
        #expect(try await roots(["--search", "budget", "--until", "2026-11-24T00:00:00Z"]) == [])
    }
}
