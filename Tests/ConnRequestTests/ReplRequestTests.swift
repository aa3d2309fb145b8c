import ConnTestSupport
import Foundation
import Testing

/// `conn request` at the REPL's prompt: the REPL delivers what it queued.
@Suite("conn request in the REPL", .enabled(if: TerminalSession.available, "needs tmux"))
struct ReplRequestTests {
    @Test("a request typed at the prompt while its server is down is delivered by the REPL once that server listens, with the first attempt's key")
    func replDelivers() async throws {
        let home = try TemporaryDirectory()
        let reservation = try HTTPPorts.reserved()
        try await ServerProcess.with { configured in
            let environment = home.environment.merging(["CONN_SERVER": configured.absoluteString, "TERM": "xterm-256color", "LANG": "C.UTF-8"]) { $1 }
            let terminal = try TerminalSession([ConnProcess.connPath, "repl", "--interval", "1s"], environment: environment)
            try await terminal.waitFor(20, "the online prompt") { $0.hasSuffix("conn online ›") }
            try terminal.type("request -X DELETE http://127.0.0.1:\(reservation.port)/items/1\n")
            try await terminal.waitFor(20, "the request queued") { $0.contains("This REPL delivers it when its server is reachable") }
            reservation.release()
            try await BadServer.with([.answer("DELETE", "/items/1", status: 204, body: "")], port: reservation.port) { server in
                let keys = try await poll(for: 30, every: .milliseconds(100)) { () -> [String?]? in
                    let requests = try server.requests()
                    return requests.isEmpty ? nil : requests.map { $0.header("Idempotency-Key") }
                }
                #expect(keys?.count == 1 && keys?.first??.isEmpty == false, "\(String(describing: keys)) \(terminal.transcript())")
            }
            try terminal.type("exit\n")
            let end = try await terminal.finished()
            #expect(end.status == 0)
            let list = try await home.conn(["outbox", "list", "--all", "--json"], server: configured)
            #expect((try list.json()["messages"] as? [[String: Any]])?.first?["state"] as? String == "sent", "\(list.standardOutput)")
        }
    }
}
