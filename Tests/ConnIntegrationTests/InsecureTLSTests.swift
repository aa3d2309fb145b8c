import ConnTestSupport
import Foundation
import Testing

/// One TLS setting for HTTP and WebSocket: `--insecure` (a global option, so the TLS error's hint
/// names something every command accepts) lets HTTP and the wss link through to a self-signed
/// server alike; without it, both refuse.
@Suite("--insecure for HTTP and WebSocket alike")
struct InsecureTLSTests {
    static let routes: [BadServer.Route] = [
        .answer("GET", "/health", status: 204, body: ""),
        .answer("GET", "/inbox", status: 200, body: #"{"inbox":[]}"#),
        .answer("GET", "/time", status: 200, body: #"{"t2":{now},"t3":{now}}"#),
        BadServer.Route(path: "/ws", websocket: .init(onPing: [#"{"type":"pong","t1":{t1},"t2":{now},"t3":{now}}"#], holdMs: 6000)),
    ]

    func conn(_ arguments: [String], server: BadServer, host: String = "localhost") async throws -> ProcessOutcome {
        let home = try TemporaryDirectory()
        let url = "https://\(host):\(server.url.port!)"
        return try await ConnProcess.run(ConnProcess.connPath, arguments, environment: home.environment.merging(["CONN_SERVER": url]) { $1 })
    }

    static func connected(_ outcome: ProcessOutcome) -> Bool {
        outcome.standardOutput.split(separator: "\n").contains { $0.contains(#""type":"connectionState""#) && $0.contains(#""status":"connected""#) }
    }

    @Test("inbox fetch: refused with a hint naming --insecure, which it accepts; the wss link connects only with it")
    func oneSetting() async throws {
        try await BadServer.with(Self.routes, tls: true) { server in
            let refused = try await conn(["inbox", "fetch"], server: server)
            #expect(refused.exitCode == 69, "\(refused.standardError)")
            #expect(refused.standardError.contains("--insecure"), "\(refused.standardError)")
            let accepted = try await conn(["inbox", "fetch", "--insecure"], server: server)
            #expect(accepted.exitCode == 0, "\(accepted.standardError)")

            // 5 s: room for a loaded machine; the link connects and pings at once.
            let watch = ["watch", "--json", "--no-internet", "--until", "offline", "--timeout", "5s"]
            let verified = try await conn(watch, server: server)
            #expect(!Self.connected(verified), "the link accepted a self-signed certificate: \(verified.standardOutput)")
            let insecure = try await conn(watch + ["--insecure"], server: server)
            #expect(Self.connected(insecure), "the link ignored --insecure: \(insecure.standardOutput) \(insecure.standardError)")

            let clock = try await conn(["clock-offset", "--method", "ws", "--samples", "2", "--insecure"], server: server)
            #expect(clock.exitCode == 0, "\(clock.standardError)")

            // The json method's own connection: the same setting, the same refusal without it.
            let jsonRefused = try await conn(["clock-offset", "--method", "json", "--samples", "2"], server: server)
            #expect(jsonRefused.exitCode == 69 && jsonRefused.standardError.contains("--insecure"), "\(jsonRefused.standardError)")
            let json = try await conn(["clock-offset", "--method", "json", "--samples", "2", "--insecure"], server: server)
            #expect(json.exitCode == 0, "\(json.standardError)")
        }
    }

    @Test("wss and https to an IP literal: the link and the ws and json clock methods connect, without SNI (NIOSSL refused an IP there)")
    func ipLiteral() async throws {
        try await BadServer.with(Self.routes, tls: true) { server in
            let watch = ["watch", "--json", "--no-internet", "--until", "offline", "--timeout", "5s", "--insecure"]
            let link = try await conn(watch, server: server, host: "127.0.0.1")
            #expect(Self.connected(link), "the link to wss://127.0.0.1 did not connect: \(link.standardOutput) \(link.standardError)")
            let clock = try await conn(["clock-offset", "--method", "ws", "--samples", "2", "--insecure"], server: server, host: "127.0.0.1")
            #expect(clock.exitCode == 0, "\(clock.standardError)")
            let json = try await conn(["clock-offset", "--method", "json", "--samples", "2", "--insecure"], server: server, host: "127.0.0.1")
            #expect(json.exitCode == 0, "\(json.standardError)")
            #expect(!server.tlsServerNames().isEmpty)
            #expect(server.tlsServerNames().allSatisfy { $0 == nil }, "an IP address was sent as SNI: \(server.tlsServerNames())")
        }
    }
}
