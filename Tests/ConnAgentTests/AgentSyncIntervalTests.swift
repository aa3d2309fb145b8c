import ConnTestSupport
import Foundation
import Testing

/// `conn agent --sync-interval`: the inbox is fetched every interval, and never with 0. The
/// server is a scripted one that logs every request, so the counts are the server's own.
@Suite("conn agent --sync-interval")
struct AgentSyncIntervalTests {
    let home: TemporaryDirectory

    init() throws { home = try TemporaryDirectory() }

    static let routes: [BadServer.Route] = [
        .answer("GET", "/health", status: 204, body: ""),
        .answer("GET", "/inbox", status: 200, body: #"{"inbox":[{"uid":"1","from":"a@x","to":"b@x","subject":"s","text":"t","responseToUid":"","dateTime":"Today"}]}"#),
    ]

    func agent(_ server: BadServer, syncInterval: String) throws -> JSONLinesProcess {
        try JSONLinesProcess(ConnProcess.connPath, ["agent", "--json", "--no-internet", "--no-link", "--interval", "500ms", "--sync-interval", syncInterval],
                             environment: home.environment.merging(["CONN_SERVER": server.url.absoluteString]) { $1 })
    }

    func count(_ path: String, in server: BadServer) throws -> Int { try server.requests().filter { $0.path == path }.count }
    func paths(_ server: BadServer) -> [String] { ((try? server.requests()) ?? []).map(\.path) }

    @Test("every second: the inbox fetched again and again (sync events, the cache filled); 0: never fetched, while the looks (every 500 ms) show the agent at work")
    func syncInterval() async throws {
        try await BadServer.with(Self.routes) { server in
            let agent = try agent(server, syncInterval: "1s")
            // Three fetches: the first, and two more a second apart.
            let thrice = try await poll(for: 30, every: .milliseconds(50)) { try count("/inbox", in: server) >= 3 ? true : nil }
            #expect(thrice == true, "\(paths(server)) \(agent.errorOutput)")
            let syncs = agent.events.filter { $0["type"] as? String == "sync" }
            #expect(syncs.count >= 1, "\(agent.events)")
            #expect(await agent.stop() == 0)
            let listed = try await home.conn(["inbox", "list", "--json"], server: server.url)
            #expect((try listed.json()["conversations"] as? [[String: Any]])?.count == 1, "\(listed.standardOutput) \(listed.standardError)")
        }
        try await BadServer.with(Self.routes) { server in
            let agent = try agent(server, syncInterval: "0")
            // The marker that time has passed: six looks at the health resource, three seconds of
            // the agent's life, in which a 1 s sync would have fetched three times.
            let looked = try await poll(for: 30, every: .milliseconds(50)) { try count("/health", in: server) >= 6 ? true : nil }
            #expect(looked == true, "\(paths(server))")
            #expect(try count("/inbox", in: server) == 0, "\(paths(server))")
            #expect(await agent.stop() == 0)
        }
    }
}
