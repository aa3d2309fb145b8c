import ConnTestSupport
import ConnCore
import Foundation
import Testing

/// One verdict everywhere: every rung of the ladder made real in network namespaces, and for
/// each, `probe` (JSON, text, exit status), `watch` (its baseline, JSON and text, and --until
/// that state) and `agent status` (JSON and text) must say the same state and reason.
// Serialized: each case starts servers, probes, a watch and an agent in namespaces; eleven at
// once on a 2-core CI machine starved the in-process suites running beside them.
@Suite("one verdict, every rung", .serialized, .enabled(if: NetworkNamespace.available, "needs root and ip netns"))
struct VerdictLadderTests {
    /// How a case's network is made: a client namespace (where conn runs) and a server side
    /// joined by a veth pair (10.77.0.1 ↔ 10.77.0.2), with conn-server on 10.77.0.2.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var state: String
        var reason: String?
        /// Options of conn-server (`--portal`, `--fail-rate 1`).
        var serverOptions: [String] = []
        /// The veth pair is made (false: the client has only loopback).
        var link = true
        /// The client's end has its address.
        var address = true
        /// The server's URL as conn is given it; `{port}` is conn-server's port, `{closed}` a closed one.
        var server = "http://10.77.0.2:{port}"
        /// More options for probe, watch and the agent.
        var options: [String] = []
        /// probe's own arguments (default: none, so the configured server).
        var probeArguments: [String]?
        /// An `openssl s_server` with a self-signed certificate on 10.77.0.2:8443 too.
        var tls = false
        /// Run once the network is made, before conn looks.
        var after: @Sendable (NetworkNamespace, NetworkNamespace, String) async throws -> Void = { _, _, _ in }

        var testDescription: String { name }
    }

    static let internetURLs = ["--internet-url", "http://10.77.0.2:{port}/health=204", "--internet-url", "http://conn-check.invalid:{port}/health=204"]

    static let cases: [Case] = [
        Case(name: "online", state: "online", reason: nil),
        Case(name: "no interface", state: "offline", reason: "noInterface", link: false),
        Case(name: "no address", state: "offline", reason: "noAddress", address: false),
        Case(name: "no route", state: "offline", reason: "noRoute", server: "http://10.99.0.9:8080"),
        Case(name: "no carrier", state: "offline", reason: "noCarrier", after: { _, serverSide, peer in
            try await serverSide.exec(["ip", "link", "set", peer, "down"])
        }),
        Case(name: "DNS broken (the internet check asked for)", state: "serverUnreachable", reason: "dnsBroken", options: internetURLs,
             probeArguments: internetURLs),
        Case(name: "portal", state: "portal", reason: "portal", serverOptions: ["--portal"]),
        Case(name: "tcp refused", state: "serverUnreachable", reason: "refused", server: "http://10.77.0.2:{closed}"),
        Case(name: "tcp timeout", state: "serverUnreachable", reason: "timeout", server: "http://192.0.2.10:8080", after: { client, _, _ in
            try await client.blackhole("192.0.2.10")
        }),
        Case(name: "tls (a certificate that does not verify)", state: "serverUnreachable", reason: "tlsError", server: "https://10.77.0.2:8443",
             tls: true),
        Case(name: "http 5xx", state: "serverUnreachable", reason: "httpStatus", serverOptions: ["--fail-rate", "1"]),
    ]

    @Test("probe, watch and agent status agree", arguments: cases)
    func agree(_ rung: Case) async throws {
        let home = try TemporaryDirectory()
        let client = try await NetworkNamespace.make()
        let serverSide = try await NetworkNamespace.make()
        let interface = "vc" + client.name.suffix(8), peer = "vs" + client.name.suffix(8)
        if rung.link {
            try await client.veth(interface, address: rung.address ? "10.77.0.1/24" : nil, to: serverSide, peer: peer, peerAddress: "10.77.0.2/24")
        }
        let server = try await BackgroundServer.start(["--host", rung.link ? "10.77.0.2" : "127.0.0.1"] + rung.serverOptions,
                                                      wrapper: [NetworkNamespace.ipPath, "netns", "exec", serverSide.name])
        defer { Task { await server.stop() } }
        try await rung.after(client, serverSide, peer)
        var tlsServer: SpawnedProcess?
        defer { tlsServer?.terminate() }
        if rung.tls {
            let key = home.path + "/tls-key.pem", certificate = home.path + "/tls-cert.pem"
            let made = try await ConnProcess.run("/usr/bin/env", ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key,
                                                                  "-out", certificate, "-subj", "/CN=conn-test", "-days", "1"],
                                                 environment: ProcessInfo.processInfo.environment)
            #expect(made.exitCode == 0)
            let process = try SpawnedProcess(NetworkNamespace.ipPath, ["netns", "exec", serverSide.name, "openssl", "s_server", "-accept", "10.77.0.2:8443",
                                                                       "-cert", certificate, "-key", key, "-www", "-quiet"])
            tlsServer = process
            let listening = await poll(for: 10, every: .milliseconds(50)) {
                (try? await client.exec(["bash", "-c", "exec 3<>/dev/tcp/10.77.0.2/8443"])) != nil ? true : nil
            }
            try #require(listening == true, "openssl s_server did not start")
        }
        let port = String(server.url.port!), closed = String(try HTTPPorts.closed())
        let fill = { (text: String) in text.replacingOccurrences(of: "{port}", with: port).replacingOccurrences(of: "{closed}", with: closed) }
        var environment = home.environment
        environment["CONN_SERVER"] = fill(rung.server)
        environment["CONN_TIMEOUT"] = "1s"
        let options = rung.options.map(fill)
        func conn(_ arguments: [String]) async throws -> ProcessOutcome {
            let (program, wrapped) = client.wrap([ConnProcess.connPath] + arguments)
            return try await ConnProcess.run(program, wrapped, environment: environment)
        }
        let expected = rung.reason.map { "\(rung.state) (\($0)" } ?? rung.state
        let exit: Int32 = rung.state == "online" ? 0 : 69

        // probe: JSON, text and exit status.
        let probeArguments = (rung.probeArguments ?? []).map(fill)
        let json = try await conn(["probe", "--json"] + probeArguments)
        let report = try json.json()
        #expect(report["state"] as? String == rung.state && report["reason"] as? String == rung.reason, "probe --json: \(report)")
        #expect(json.exitCode == exit, "probe --json exit \(json.exitCode)")
        #expect(report["allReachable"] as? Bool == (rung.state == "online"))
        let text = try await conn(["probe"] + probeArguments)
        #expect(text.exitCode == exit, "probe exit \(text.exitCode)")
        if rung.state == "online" {
            #expect(!text.standardOutput.contains("state:"), "\(text.standardOutput)")
        } else {
            #expect(text.standardOutput.contains("state: \(expected)"), "probe text: \(text.standardOutput)")
        }

        // watch: the baseline, JSON and text; --until that state is reached at once.
        let watchOptions = ["--no-link", "--until", rung.state, "--timeout", "20s"] + (rung.options.isEmpty ? ["--no-internet"] : options)
        let watched = try await conn(["watch", "--json"] + watchOptions)
        #expect(watched.exitCode == 0, "watch --until \(rung.state): \(watched.exitCode) \(watched.standardError) \(watched.standardOutput)")
        let baseline = try #require(watched.standardOutput.split(separator: "\n").first.flatMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        })
        #expect(baseline["type"] as? String == "baseline" && baseline["state"] as? String == rung.state
                && baseline["reason"] as? String == rung.reason, "watch baseline: \(baseline)")
        let watchedText = try await conn(["watch"] + watchOptions)
        let firstLine = watchedText.standardOutput.split(separator: "\n").first.map(String.init) ?? ""
        #expect(firstLine.contains(rung.state) && (rung.reason.map { firstLine.contains($0) } ?? true), "watch text: \(watchedText.standardOutput)")

        // agent status: from the running agent, JSON and text.
        let (program, wrapped) = client.wrap([ConnProcess.connPath, "agent", "--json", "--no-link", "--interval", "1s"]
            + (rung.options.isEmpty ? ["--no-internet"] : options))
        let agent = try JSONLinesProcess(program, wrapped, environment: environment)
        _ = try #require(try await agent.await(20) { $0["type"] as? String == "baseline" }, "\(agent.events) \(agent.errorOutput)")
        let status = try await home.conn(["agent", "status", "--json"], env: ["CONN_SERVER": fill(rung.server)])
        let agentState = try status.json()
        #expect(agentState["state"] as? String == rung.state && agentState["reason"] as? String == rung.reason, "agent status --json: \(agentState)")
        let statusText = try await home.conn(["agent", "status"], env: ["CONN_SERVER": fill(rung.server)])
        #expect(statusText.standardOutput.contains("state: \(expected)"), "agent status: \(statusText.standardOutput)")
        #expect(await agent.stop() == 0)
    }
}
