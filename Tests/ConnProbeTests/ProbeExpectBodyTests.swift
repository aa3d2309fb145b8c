import ConnTestSupport
import Foundation
import Testing

/// `probe --expect-body`: the answer's content proves it, not its status alone.
@Suite("probe --expect-body")
struct ProbeExpectBodyTests {
    let home: TemporaryDirectory

    init() throws { home = try TemporaryDirectory() }

    func probe(_ arguments: [String]) async throws -> (ProcessOutcome, [String: Any]) {
        let outcome = try await home.conn(["probe", "--json"] + arguments)
        let result = try #require((try outcome.json()["results"] as? [[String: Any]])?.first, "\(outcome.standardOutput) \(outcome.standardError)")
        return (outcome, result)
    }

    @Test("the text in the body: reachable, 0; not in it: unexpectedBody, 69, saying what was looked for; with --expect-status, both must hold")
    func expectBody() async throws {
        let routes: [BadServer.Route] = [
            .answer("GET", "/health", status: 200, contentType: "text/plain", body: "status: green\n"),
            .answer("GET", "/down", status: 503, contentType: "text/plain", body: "status: green\n"),
        ]
        try await BadServer.with(routes) { server in
            let url = server.url.absoluteString
            let (found, green) = try await probe(["--expect-body", "status: green", url + "/health"])
            #expect(found.exitCode == 0 && green["reachable"] as? Bool == true && green["verdict"] as? String == "reachable", "\(green)")

            let (missing, red) = try await probe(["--expect-body", "status: red", url + "/health"])
            #expect(missing.exitCode == 69 && red["verdict"] as? String == "unexpectedBody", "\(red)")
            #expect((red["explanation"] as? String)?.contains("status: red") == true, "\(red)")
            let text = try await home.conn(["probe", "--expect-body", "status: red", url + "/health"])
            #expect(text.exitCode == 69 && text.standardOutput.contains("unexpectedBody"), "\(text.standardOutput)")

            // The body says green, but the status is not one asked for: the status decides first.
            let (refused, status) = try await probe(["--expect-body", "status: green", url + "/down"])
            #expect(refused.exitCode == 69 && status["verdict"] as? String == "httpStatus", "\(status)")
            let (both, accepted) = try await probe(["--expect-status", "503", "--expect-body", "status: green", url + "/down"])
            #expect(both.exitCode == 0 && accepted["verdict"] as? String == "reachable", "\(accepted)")
        }
    }
}
