import ConnCore
import ConnTestSupport
import Foundation
import Testing

/// `conn get`: any resource offline-first, against bad_server.py (which logs every request, so
/// a test sees what went over the network and what did not).
@Suite("conn get: offline-first reads")
struct GetCommandTests {
    let home: TemporaryDirectory

    init() throws { home = try TemporaryDirectory() }

    static let catalog = "{\"items\":[\"lamp\",\"chair\"],\"note\":\"ünïcode\"}\n"

    func get(_ arguments: [String], env: [String: String] = [:]) async throws -> ProcessOutcome {
        try await home.conn(["get"] + arguments, env: env)
    }

    @Test("network-first: the body byte for byte; then If-None-Match and If-Modified-Since, a 304 served from the copy; the server gone: the copy, said on stderr; a 503: the copy; a 404 and a 401 are errors never covered; no copy and no network: 69 saying why")
    func networkFirst() async throws {
        let validators = [["ETag", "\"v1\""], ["Last-Modified", "Sat, 28 Nov 2026 01:00:00 GMT"], ["Content-Type", "application/json"]]
        let routes: [BadServer.Route] = [
            .inTurn("GET", "/catalog", [.init(200, headers: validators, body: Self.catalog), .init(304, headers: [["ETag", "\"v1\""]]),
                                        .init(503, body: "busy")]),
            .answer("GET", "/missing", status: 404, body: "no"),
            .answer("GET", "/private", status: 401, body: "who"),
        ]
        let reservation = try HTTPPorts.reserved()
        let url = "http://127.0.0.1:\(reservation.port)/catalog"
        let none = try await get([url])
        #expect(none.exitCode == 69 && none.standardOutput.isEmpty && none.standardError.contains("refused the connection"), "\(none.standardError)")
        reservation.release()
        try await BadServer.with(routes, port: reservation.port) { server in
            let first = try await get([url])
            #expect(first.exitCode == 0 && first.standardOutput == Self.catalog && first.standardError.isEmpty, "\(first.standardOutput) \(first.standardError)")
            let second = try await get([url])
            #expect(second.exitCode == 0 && second.standardOutput == Self.catalog && second.standardError.isEmpty, "a 304 is the copy, still current: \(second.standardError)")
            let asked = try server.requests()
            #expect(asked.count == 2 && asked[1].header("If-None-Match") == "\"v1\"" && asked[1].header("If-Modified-Since") == "Sat, 28 Nov 2026 01:00:00 GMT")
            let busy = try await get([url])
            #expect(busy.exitCode == 0 && busy.standardOutput == Self.catalog && busy.standardError.contains("from the cache, fetched") && busy.standardError.contains("answered 503"),
                    "\(busy.standardError)")
            let missing = try await get([server.url.absoluteString + "/missing"])
            #expect(missing.exitCode == 69 && missing.standardOutput.isEmpty && missing.standardError.contains("answered 404"), "\(missing.standardError)")
            let refused = try await get([server.url.absoluteString + "/private"])
            #expect(refused.exitCode == 77 && refused.standardOutput.isEmpty, "\(refused.standardError)")
        }
        let offline = try await get([url])
        #expect(offline.exitCode == 0 && offline.standardOutput == Self.catalog, "\(offline.standardError)")
        #expect(offline.standardError.contains("from the cache, fetched") && offline.standardError.contains("refused the connection"), "\(offline.standardError)")
        let json = try await get([url, "--json"])
        let report = try json.json()
        #expect(report["fromCache"] as? Bool == true && report["etag"] as? String == "\"v1\"" && report["status"] as? Int == 200
                && (report["json"] as? [String: Any])?["note"] as? String == "ünïcode" && report["body"] as? String == Self.catalog, "\(json.standardOutput)")
        let problems = try await JSONSchemaCheck.violations(of: json.standardOutput, schema: "get")
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("no-store is never kept and drops an older copy; cache-first serves a copy fresh for the server's max-age without asking, --max-age 0 asks; --offline never touches the network, and without a copy is 69")
    func strategies() async throws {
        let routes: [BadServer.Route] = [
            .inTurn("GET", "/secret", [.init(200, body: "first"), .init(200, headers: [["Cache-Control", "no-store"]], body: "second")]),
            .answer("GET", "/fresh", status: 200, headers: [["Cache-Control", "max-age=3600"]], body: "fresh"),
        ]
        try await BadServer.with(routes) { server in
            let secret = server.url.absoluteString + "/secret", fresh = server.url.absoluteString + "/fresh"
            #expect(try await get([secret]).standardOutput == "first")
            #expect(try await get([secret]).standardOutput == "second")
            let gone = try await get([secret, "--offline"])
            #expect(gone.exitCode == 69 && gone.standardError.contains("no copy of \(secret) is kept"), "no-store dropped the copy: \(gone.standardError)")
            #expect(try await get([fresh, "--strategy", "cache-first"]).standardOutput == "fresh")
            let before = try server.requests().count
            let served = try await get([fresh, "--strategy", "cache-first"])
            #expect(try served.standardOutput == "fresh" && served.standardError.isEmpty && server.requests().count == before, "fresh: not asked")
            _ = try await get([fresh, "--strategy", "cache-first", "--max-age", "0"])
            #expect(try server.requests().count == before + 1)
            let offline = try await get([fresh, "--offline"])
            #expect(try offline.standardOutput == "fresh" && offline.standardError.contains("(--offline)") && server.requests().count == before + 1, "\(offline.standardError)")
            let never = try await get([server.url.absoluteString + "/never", "--offline"])
            #expect(try never.exitCode == 69 && server.requests().count == before + 1)
        }
    }

    @Test("stale-while-revalidate: the copy at once, then the network refreshes it for next time")
    func staleWhileRevalidate() async throws {
        try await BadServer.with([.inTurn("GET", "/news", [.init(200, body: "v1"), .init(200, body: "v2")])]) { server in
            let url = server.url.absoluteString + "/news"
            #expect(try await get([url]).standardOutput == "v1")
            let stale = try await get([url, "--strategy", "stale-while-revalidate"])
            #expect(stale.exitCode == 0 && stale.standardOutput == "v1", "\(stale.standardOutput)")
            #expect(try server.requests().count == 2, "refreshed after answering")
            #expect(try await get([url, "--offline"]).standardOutput == "v2")
        }
    }

    @Test("cacheLimit: the least recently used copy goes first; conn cache list shows the rest by origin; conn cache clear drops one, then all; bad options and URLs are 64")
    func limitsListAndClear() async throws {
        let body = String(repeating: "x", count: 400 << 10)
        try await BadServer.with([.answer("GET", "*", status: 200, contentType: "text/plain", body: body)]) { server in
            let env = ["CONN_CACHE_LIMIT": "1MiB"]
            let base = server.url.absoluteString
            for name in ["a", "b"] { #expect(try await get([base + "/" + name], env: env).exitCode == 0) }
            _ = try await get([base + "/a", "--offline"], env: env)  // a is used again: b is now the least recent
            #expect(try await get([base + "/c"], env: env).exitCode == 0)
            let list = try await home.conn(["cache", "list", "--json"], env: env)
            let urls = (try list.json()["resources"] as? [[String: Any]])?.compactMap { $0["url"] as? String } ?? []
            #expect(Set(urls) == [base + "/a", base + "/c"], "\(urls)")
            #expect(try list.json()["limitBytes"] as? Int == 1 << 20)
            for schema in ["cache-list"] {
                let problems = try await JSONSchemaCheck.violations(of: list.standardOutput, schema: schema)
                #expect(problems.isEmpty, "\(problems)")
            }
            let text = try await home.conn(["cache", "list"], env: env)
            #expect(text.standardOutput.contains("2 copies") && text.standardOutput.contains("of 1MiB (cacheLimit)"), "\(text.standardOutput)")
            let one = try await home.conn(["cache", "clear", base + "/a"])
            #expect(one.exitCode == 0 && one.standardOutput == "1 copy dropped\n", "\(one.standardOutput)")
            let all = try await home.conn(["cache", "clear", "--all", "--json"])
            #expect(try all.json()["removed"] as? Int == 1)
            #expect(try await home.conn(["cache", "clear"]).exitCode == 64)
            #expect(try await get(["ftp://example.com/x"]).exitCode == 64)
            #expect(try await get([base + "/a", "--max-age", "1h"]).exitCode == 64)
            #expect(try await get([base + "/a", "--offline", "--strategy", "cache-first"]).exitCode == 64)
        }
    }

    @Test("a copy is the old one or the new one, never half: conn get killed with SIGKILL at random moments while replacing a 4 MiB copy")
    func atomicUnderKill() async throws {
        let size = 4 << 20
        let answers = ["a", "b"].map { BadServer.Answer(200, headers: [["Content-Type", "text/plain"]], body: String(repeating: $0, count: size)) }
        try await BadServer.with([.inTurn("GET", "/big", answers, cycle: true)]) { server in
            let url = server.url.absoluteString + "/big"
            #expect(try await get([url]).exitCode == 0)
            var generator = SeededGenerator(seed: 57)
            for _ in 0..<10 {
                let process = try SpawnedProcess(ConnProcess.connPath, ["get", url], environment: home.environment)
                try await Task.sleep(for: .milliseconds(Int.random(in: 10...250, using: &generator)))
                process.signal(SIGKILL)
                await process.exited()
                let copy = try await get([url, "--offline", "--json"])
                let report = try copy.json()
                let body = report["body"] as? String ?? ""
                #expect(body.count == size && (body.allSatisfy { $0 == "a" } || body.allSatisfy { $0 == "b" }), "a copy of \(body.count) bytes, mixed or cut")
            }
        }
    }
}

extension GetCommandTests {
    @Test("the agent keeps the sync: URLs fresh: fetched on becoming online, refreshed every --sync-interval; conn get --offline reads the latest; a refresh that fails is logged and the copy kept")
    func agentKeepsResourcesFresh() async throws {
        try await ServerProcess.with { configured in
            try await BadServer.with([.inTurn("GET", "/catalog", [.init(200, body: "v1"), .init(200, body: "v2"), .init(503, body: "busy")])]) { api in
                let url = api.url.absoluteString + "/catalog"
                let agent = try JSONLinesProcess(ConnProcess.connPath, ["agent", "--json", "--no-internet", "--interval", "1s", "--sync-interval", "1s"],
                                                 environment: home.environment.merging(["CONN_SERVER": configured.absoluteString, "CONN_SYNC": url]) { $1 })
                let failed = try #require(try await agent.await(30) {
                    $0["type"] as? String == "resources" && ($0["detail"] as? String)?.contains("1 not refreshed") == true
                }, "\(agent.standardOutput) \(agent.errorOutput)")
                #expect((failed["detail"] as? String)?.contains("answered 503") == true, "\(failed)")
                let refreshed = agent.events.filter { $0["type"] as? String == "resources" }.compactMap { $0["detail"] as? String }
                #expect(refreshed.prefix(2) == ["1 refreshed, 0 current", "1 refreshed, 0 current"], "\(refreshed)")
                let offline = try await home.conn(["get", url, "--offline"])
                #expect(offline.exitCode == 0 && offline.standardOutput == "v2", "the copy kept: \(offline.standardOutput) \(offline.standardError)")
                #expect(await agent.stop() == 0)
                let problems = try await JSONSchemaCheck.violations(of: agent.standardOutput, schema: "agent-event")
                #expect(problems.isEmpty, "\(problems)")
            }
        }
    }
}

extension GetCommandTests {
    @Test("an answer larger than 32 MiB is refused (65) and nothing is kept")
    func tooLargeIsRefused() async throws {
        let body = String(repeating: "z", count: (32 << 20) + 1)
        try await BadServer.with([.answer("GET", "/huge", status: 200, contentType: "text/plain", body: body)]) { server in
            let url = server.url.absoluteString + "/huge"
            let huge = try await get([url])
            #expect(huge.exitCode == 65 && huge.standardOutput.isEmpty && huge.standardError.contains("larger than 33554432 bytes"), "\(huge.standardError)")
            let kept = try await get([url, "--offline"])
            #expect(kept.exitCode == 69, "nothing kept: \(kept.standardError)")
        }
    }
}
