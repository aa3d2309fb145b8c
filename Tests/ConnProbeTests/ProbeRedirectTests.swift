import ConnTestSupport
import Foundation
import Testing

/// A redirect is not an answer from the target: within its origin it is followed and the last
/// answer judged; to another origin it is `redirected`, and from the configured server's health
/// resource `portal` (the most common captive portal answers exactly so). Text, JSON, the exit
/// status and watch agree. The other origin is a second hostile server on 127.0.0.2.
@Suite("probe and redirects")
struct ProbeRedirectTests {
    let home: TemporaryDirectory

    init() throws { home = try TemporaryDirectory() }

    func conn(_ arguments: [String], server: BadServer) async throws -> ProcessOutcome {
        let environment = home.environment.merging(["CONN_SERVER": server.url.absoluteString, "CONN_TOKEN": "tok-redirect-secret"]) { $1 }
        return try await ConnProcess.run(ConnProcess.connPath, arguments, environment: environment)
    }

    func firstResult(_ outcome: ProcessOutcome) throws -> [String: Any] {
        let results = try #require(try outcome.json()["results"] as? [[String: Any]], "\(outcome.standardOutput) \(outcome.standardError)")
        return try #require(results.first)
    }

    @Test("the server's health redirected to another origin: portal in text, JSON, exit status and watch; the other origin is never asked")
    func serverRedirectedAway() async throws {
        try await BadServer.with([.answer(nil, "*", status: 200, contentType: "text/html", body: "<html>sign in</html>")], host: "127.0.0.2") { portal in
            let login = portal.url.absoluteString + "/login?next=%2F"
            try await BadServer.with([.redirect("GET", "/health", status: 302, to: login)]) { server in
                let json = try await conn(["probe", "--json"], server: server)
                let object = try json.json()
                #expect(object["state"] as? String == "portal" && object["reason"] as? String == "portal", "\(json.standardOutput)")
                let result = try firstResult(json)
                #expect(result["verdict"] as? String == "portal" && result["reachable"] as? Bool == false)
                #expect(result["location"] as? String == login && result["httpStatus"] as? Int == 302, "\(result)")
                #expect(json.exitCode == 69)

                let text = try await conn(["probe"], server: server)
                #expect(text.exitCode == json.exitCode)
                #expect(!text.standardOutput.contains("reachable [HTTP 302]") && text.standardOutput.contains("portal"), "\(text.standardOutput)")
                #expect(text.standardOutput.contains(login), "the text does not say where: \(text.standardOutput)")

                let watched = try await conn(["watch", "--json", "--no-internet", "--until", "online", "--timeout", "4s"], server: server)
                let baseline = watched.standardOutput.split(separator: "\n").first { $0.contains(#""type":"baseline""#) } ?? ""
                #expect(baseline.contains(#""state":"portal""#), "\(watched.standardOutput) \(watched.standardError)")
                let asked = try portal.requests().map(\.path)
                #expect(asked.isEmpty, "the portal was asked: \(asked)")
            }
        }
    }

    @Test("the server's health redirecting within its origin (a relative and an absolute Location) ends in its 200: reachable, online, exit 0, 'after 1 redirect' in text; watch reaches online")
    func serverRedirectedWithinItsOrigin() async throws {
        let routes: [BadServer.Route] = [
            .redirect("GET", "/health", status: 302, to: "/health/"),
            .redirect("GET", "/moved", status: 301, to: "http://127.0.0.1:{port}/health/"),
            .answer("GET", "/health/", status: 200, contentType: "text/plain", body: "ok"),
        ]
        try await BadServer.with(routes) { server in
            let json = try await conn(["probe", "--json"], server: server)
            let result = try firstResult(json)
            #expect(try json.exitCode == 0 && json.json()["state"] as? String == "online", "\(json.standardOutput)")
            #expect(result["reachable"] as? Bool == true && result["verdict"] as? String == "reachable" && result["httpStatus"] as? Int == 200, "\(result)")
            #expect((result["response"] as? [String: Any])?["redirects"] as? Int == 1, "\(result)")
            let text = try await conn(["probe"], server: server)
            #expect(text.exitCode == 0 && text.standardOutput.contains("✓") && text.standardOutput.contains("after 1 redirect")
                    && !text.standardOutput.contains("state:"), "\(text.standardOutput)")
            let absolute = try await conn(["probe", "--json", server.url.absoluteString + "/moved"], server: server)
            #expect(try absolute.exitCode == 0 && firstResult(absolute)["reachable"] as? Bool == true, "\(absolute.standardOutput)")
            let watched = try await conn(["watch", "--no-internet", "--no-link", "--until", "online", "--timeout", "20s"], server: server)
            #expect(watched.exitCode == 0, "\(watched.standardOutput) \(watched.standardError)")
        }
    }

    @Test("a URL redirected within its origin is followed and the last answer judged; to another origin it is redirected; a loop ends after 5")
    func urlTargets() async throws {
        try await BadServer.with([.answer(nil, "*", status: 200, contentType: "text/plain", body: "elsewhere")], host: "127.0.0.2") { other in
            let routes: [BadServer.Route] = [
                .redirect("GET", "/old", status: 301, to: "/new"),
                .answer("GET", "/new", status: 200, contentType: "text/plain", body: "here"),
                .redirect("GET", "/gone", status: 308, to: "/broken"),
                .answer("GET", "/broken", status: 503, contentType: "text/plain", body: "down"),
                .redirect("GET", "/away", status: 302, to: other.url.absoluteString + "/x"),
                .redirect("GET", "/loop", status: 307, to: "/loop"),
                .answer("GET", "/nowhere", status: 302, contentType: "text/plain", body: ""),
                .answer("GET", "/health", status: 204, contentType: "text/plain", body: ""),
            ]
            try await BadServer.with(routes) { server in
                let base = server.url.absoluteString
                let followedRun = try await conn(["probe", "--json", base + "/old"], server: server)
                let followed = try firstResult(followedRun)
                #expect(followed["verdict"] as? String == "reachable" && followed["reachable"] as? Bool == true && followed["httpStatus"] as? Int == 200, "\(followed)")
                #expect(followedRun.exitCode == 0, "\(followedRun.standardOutput)")
                #expect(followed["location"] as? String == base + "/new")
                // The answer judged is the second: one redirect before it, its body and version.
                let response = try #require(followed["response"] as? [String: Any], "\(followed)")
                #expect(response["redirects"] as? Int == 1 && response["bodyBytes"] as? Int == 4 && response["tls"] as? Bool == false, "\(response)")
                #expect(response["httpVersion"] as? String == "1.1" && response["contentLength"] as? Int == 4, "\(response)")
                let firstByte = try #require(response["firstByteMs"] as? Double)
                let httpRung = (followed["rungs"] as? [[String: Any]])?.last { $0["name"] as? String == "http" }
                #expect(firstByte >= 0 && firstByte <= (httpRung?["ms"] as? Double ?? 0), "\(followed)")

                let broken = try await conn(["probe", "--json", base + "/gone"], server: server)
                #expect(try firstResult(broken)["verdict"] as? String == "httpStatus" && broken.exitCode == 69, "\(broken.standardOutput)")

                let away = try await conn(["probe", "--json", base + "/away"], server: server)
                let awayResult = try firstResult(away)
                #expect(awayResult["verdict"] as? String == "redirected" && awayResult["location"] as? String == other.url.absoluteString + "/x",
                        "\(awayResult)")
                #expect(try away.json()["reason"] as? String == "redirected" && away.exitCode == 69, "\(away.standardOutput)")
                #expect(try other.requests().isEmpty)

                let loop = try firstResult(try await conn(["probe", "--json", base + "/loop"], server: server))
                #expect(loop["verdict"] as? String == "redirected" && (loop["explanation"] as? String ?? "").contains("more than 5"), "\(loop)")
                #expect(try server.requests().filter { $0.path == "/loop" }.count == 6)

                let nowhere = try firstResult(try await conn(["probe", "--json", base + "/nowhere"], server: server))
                #expect(nowhere["verdict"] as? String == "httpStatus", "\(nowhere)")

                // A redirect named in --expect-status is taken as it is.
                let expected = try await conn(["probe", "--json", "--expect-status", "302", base + "/away"], server: server)
                #expect(try firstResult(expected)["verdict"] as? String == "reachable" && expected.exitCode == 0, "\(expected.standardOutput)")
            }
        }
    }
}
