import ConnTestSupport
import Foundation
import Testing

/// How far `GET /probe` reaches: the configured server's origin, not the other services of its
/// host; a name in --probe-allow leading to loopback is not a way to loopback; the address
/// checked is the address connected to (a resolver that changes its answer gets no second ask).
extension AgentMetricsTests {
    func probePath(_ target: String, module: String = "http_2xx") -> String {
        "/probe?module=\(module)&target=\(target.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
    }

    @Test("/probe reaches the configured server's origin, not another port of its host, nor loopback through a name in --probe-allow; named as addresses, both are probed")
    func probeReachesTheServersOriginOnly() async throws {
        try await BadServer.with([.answer("GET", "/zzz", status: 200, contentType: "text/plain", body: "zzz")]) { beside in
        try await ServerProcess.with { url in
            let other = "http://127.0.0.1:\(beside.url.port!)/zzz", byName = "http://localhost:\(beside.url.port!)/zzz"
            let limited = try agent(url, ["--probe-allow", "localhost"])
            _ = try #require(try await limited.await { $0["type"] as? String == "baseline" }, "\(limited.errorOutput)")
            let limitedPort = try await listeningPort(limited)
            let server = try await scrape(limitedPort, path: probePath("\(url.absoluteString)/health"))
            #expect(server.status == 200 && value("probe_success", in: server.body) == 1, "\(server)")
            let otherPort = try await scrape(limitedPort, path: probePath(other))
            #expect(otherPort.status == 403 && otherPort.body.contains("another port of 127.0.0.1:\(url.port!)'s host"), "\(otherPort)")
            let socket = try await scrape(limitedPort, path: probePath("127.0.0.1:\(beside.url.port!)", module: "tcp_connect"))
            #expect(socket.status == 403, "\(socket)")
            let rebound = try await scrape(limitedPort, path: probePath(byName))
            #expect(rebound.status == 403 && rebound.body.contains("a loopback address: allowed only when named as an address"), "\(rebound)")
            let reached = try beside.requests().map(\.path)
            #expect(reached.isEmpty, "the service beside the server was reached: \(reached)")
            #expect(await limited.stop() == 0)

            let named = try agent(url, ["--probe-allow", "localhost", "--probe-allow", "127.0.0.0/8", "--probe-allow", "::1"])
            _ = try #require(try await named.await { $0["type"] as? String == "baseline" }, "\(named.errorOutput)")
            let namedPort = try await listeningPort(named)
            for target in [other, byName] {
                let answer = try await scrape(namedPort, path: probePath(target))
                #expect(answer.status == 200 && value("probe_success", in: answer.body) == 1, "\(target): \(answer)")
            }
            #expect(try beside.requests().map(\.path) == ["/zzz", "/zzz"])
            #expect(await named.stop() == 0)
        }
        }
    }

    @Test("DNS rebinding: /probe connects to the address it checked; the name is looked up once; a resolver turning to loopback is refused at the next scrape",
          .enabled(if: NetworkNamespace.available, "needs root and ip netns"))
    func probeConnectsToTheAddressItChecked() async throws {
        let namespace = try await NetworkNamespace.make()
        let resolver = try await RebindingResolver(in: namespace, first: "192.0.2.7", then: "127.0.0.1", directory: home)
        // The namespace has loopback only: 192.0.2.7 has no route there; 127.0.0.1:8080 refuses.
        let (program, arguments) = namespace.wrap([ConnProcess.connPath, "agent", "--json", "--no-internet", "--interval", "1h",
                                                   "--metrics-listen", "0", "--probe-allow", "rebind.test"])
        let agent = try JSONLinesProcess(program, arguments, environment: home.environment.merging(["CONN_SERVER": "http://127.0.0.1:1"]) { $1 })
        _ = try #require(try await agent.await { $0["type"] as? String == "baseline" }, "\(agent.errorOutput)")
        let port = try await listeningPort(agent)
        func scrapeInside(_ path: String) async throws -> (status: Int, body: String) {
            let (curl, curlArguments) = namespace.wrap(["curl", "-s", "-w", "\n%{http_code}", "http://127.0.0.1:\(port)\(path)"])
            let outcome = try await ConnProcess.run(curl, curlArguments, environment: ProcessInfo.processInfo.environment)
            let lines = outcome.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
            return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
        }
        let first = try await scrapeInside(probePath("http://rebind.test:8080/"))
        #expect(first.status == 200, "\(first)")
        // Checked at 192.0.2.7 and tried there (no route in this namespace), not at the 127.0.0.1
        // a second look-up would have given (refused).
        #expect(first.body.contains(#"conn_probe_verdict{verdict="noRoute"} 1"#), "\(first.body)")
        #expect(value("probe_ip_addr_hash", in: first.body) == 1_936_431_214, "\(first.body)")  // FNV-1a of 192.0.2.7
        #expect(resolver.answered() == ["rebind.test 192.0.2.7"], "\(resolver.answered())")
        // The resolver now says loopback: refused before any connection.
        let second = try await scrapeInside(probePath("http://rebind.test:8080/"))
        #expect(second.status == 403 && second.body.contains("at 127.0.0.1, a loopback address"), "\(second)")
        #expect(resolver.answered() == ["rebind.test 192.0.2.7", "rebind.test 127.0.0.1"], "\(resolver.answered())")
        #expect(await agent.stop() == 0)
    }
}
