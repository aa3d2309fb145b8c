import AsyncHTTPClient
import ConnProtocol
import ConnTestSupport
import Foundation
import Testing

/// Sign-in on conn-server: `POST /session` and `DELETE /session` over real HTTP.
@Suite("conn-server sessions (sign in with e-mail and password)")
struct ServerSessionTests {
    func signIn(_ client: ServerClient, _ email: String, _ password: String) async throws -> ServerClient.Answer {
        try await client.request(.POST, "/session", body: try JSONEncoder().encode(SessionRequest(email: email, password: password)))
    }

    @Test("the right password gets a token that opens the resources until it is signed out; a wrong one is 401 and gets nothing")
    func signInAndOut() async throws {
        try await ServerProcess.with(["--account", "ann@example.com:s3cret pass", "--token", "static-token-123456"]) { url in
            let client = ServerClient(base: url)
            #expect(try await client.request(.GET, "/inbox").status == 401)
            #expect(try await client.request(.GET, "/health").status == 204)

            let granted = try await signIn(client, "Ann@Example.com", "s3cret pass")
            #expect(granted.status == 201)
            #expect(granted.headers.first(name: "Cache-Control") == "no-store")
            let grant = try granted.decode(SessionGrant.self)
            #expect(grant.email == "ann@example.com" && SessionGrant.isAcceptableToken(grant.token) && grant.token.count == 64)
            let expires = try #require(try? Date(grant.expiresAt, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
            #expect(abs(expires.timeIntervalSinceNow - 86_400) < 60)
            let bearer = [("Authorization", "Bearer \(grant.token)")]
            #expect(try await client.request(.GET, "/inbox", headers: bearer).status == 200)
            // The server's own token still works beside the sessions.
            #expect(try await client.request(.GET, "/inbox", headers: [("Authorization", "Bearer static-token-123456")]).status == 200)

            #expect(try await client.request(.DELETE, "/session", headers: bearer).status == 204)
            #expect(try await client.request(.GET, "/inbox", headers: bearer).status == 401)

            for (email, password) in [("ann@example.com", "wrong"), ("bob@example.com", "s3cret pass"), ("ann@example.com", "")] {
                let refused = try await signIn(client, email, password)
                #expect(refused.status == 401, "\(email)")
                #expect(String(decoding: refused.body, as: UTF8.self).contains("badCredentials"))
            }
            let garbage = try await client.request(.POST, "/session", body: Data("{\"email\":1}".utf8))
            #expect(garbage.status == 400)
            let huge = try await client.request(.POST, "/session", body: Data(repeating: 0x20, count: 20_000))
            #expect(huge.status == 413)
        }
    }

    @Test("a short session lifetime expires the token; a server without accounts says sign-in is not there (404)")
    func expiryAndNoAccounts() async throws {
        try await ServerProcess.with(["--account", "ann@example.com:pw", "--session-lifetime", "30"]) { url in
            let client = ServerClient(base: url)
            let grant = try await signIn(client, "ann@example.com", "pw").decode(SessionGrant.self)
            let bearer = [("Authorization", "Bearer \(grant.token)")]
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            let expiresAt = try #require(formatter.date(from: grant.expiresAt) ?? ISO8601DateFormatter().date(from: grant.expiresAt), "\(grant.expiresAt)")
            // 30 s, not less: under the whole suite on CI's two cores, signing in and the first
            // request took more than 10 s once. The wait costs no CPU; the suite runs it alongside.
            let before = try await client.request(.GET, "/inbox", headers: bearer).status
            let askedInTime = Date() < expiresAt
            #expect(before == 200 || !askedInTime, "refused before its expiry (\(grant.expiresAt))")
            // Then past the expiry the grant states (not a fixed wait that a slow start eats into).
            try await Task.sleep(for: .milliseconds(Int64(max(0, expiresAt.timeIntervalSinceNow) * 1000) + 300))
            #expect(try await client.request(.GET, "/inbox", headers: bearer).status == 401)
        }
        try await ServerProcess.with { url in
            let answer = try await signIn(ServerClient(base: url), "ann@example.com", "pw")
            #expect(answer.status == 404)
            #expect(String(decoding: answer.body, as: UTF8.self).contains("signInDisabled"))
        }
    }
}
