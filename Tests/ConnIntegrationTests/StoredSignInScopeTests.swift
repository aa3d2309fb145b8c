import ConnTestSupport
import Foundation
import Testing

/// A token from `conn login` goes only to the server that granted it, and only until the
/// `expiresAt` it came with. The other side is a scripted server that logs every header.
@Suite("the stored sign-in: its own server, until it expires")
struct StoredSignInScopeTests {
    let home: TemporaryDirectory

    init() throws { home = try TemporaryDirectory() }

    var sessionFile: String { home.path + "/data/conn/sessions/default.json" }

    /// Rewrites the stored sign-in's `key` (the file stays the owner's, 0600).
    func rewrite(_ key: String, to value: String) throws {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: sessionFile))) as? [String: Any])
        object[key] = value
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: sessionFile))
        chmod(sessionFile, 0o600)
    }

    @Test("sent to the granting server only (another server gets no Authorization; its 401 is explained by whose sign-in it is); not sent once expiresAt has passed")
    func scope() async throws {
        let granting = try await BackgroundServer.start(["--account", "ann@example.com:pw"])
        let login = try await home.conn(["login", "--email", "ann@example.com", "--password-stdin"], server: granting.url, input: "pw\n")
        #expect(login.exitCode == 0, "\(login.standardError)")
        let token = try #require((try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: sessionFile))) as? [String: Any])?["token"] as? String)
        await granting.stop()

        let inbox = #"{"inbox":[]}"#
        try await BadServer.with([.answer("GET", "/inbox", status: 401, body: #"{"error":{"code":"unauthorized","message":"no"}}"#)]) { refusing in
            let refused = try await home.conn(["inbox", "fetch"], server: refusing.url)
            let origin = granting.url.absoluteString.replacingOccurrences(of: "http://", with: "")
            #expect(refused.exitCode == 77 && refused.standardError.contains(origin), "\(refused.standardError)")
            #expect(try refusing.requests().last?.header("Authorization") == nil)
        }
        try await BadServer.with([.answer("GET", "/inbox", status: 200, body: inbox)]) { other in
            // Another server: the token stays home.
            let elsewhere = try await home.conn(["inbox", "fetch"], server: other.url)
            #expect(elsewhere.exitCode == 0, "\(elsewhere.standardError)")
            #expect(try other.requests().last?.header("Authorization") == nil, "\(String(describing: try? other.requests().last?.headers))")

            // The same file, as granted by this server: sent, while it holds.
            try rewrite("server", to: other.url.absoluteString)
            let granted = try await home.conn(["inbox", "fetch"], server: other.url)
            #expect(granted.exitCode == 0, "\(granted.standardError)")
            #expect(try other.requests().last?.header("Authorization") == "Bearer \(token)")

            // Expired: no longer sent.
            try rewrite("expiresAt", to: "2020-01-01T00:00:00Z")
            let expired = try await home.conn(["inbox", "fetch"], server: other.url)
            #expect(expired.exitCode == 0, "\(expired.standardError)")
            #expect(try other.requests().last?.header("Authorization") == nil, "\(String(describing: try? other.requests().last?.headers))")
        }
    }

    @Test("a grant whose expiresAt is past, absurdly far, or not a time is refused (65) and nothing is stored", arguments: [
        "2020-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "tomorrow",
    ])
    func refusedGrants(expiresAt: String) async throws {
        let grant = #"{"token":"a-token-long-enough-to-use-0123456789","expiresAt":"\#(expiresAt)","email":"ann@example.com"}"#
        try await BadServer.with([.answer("POST", "/session", status: 201, body: grant)]) { server in
            let login = try await home.conn(["login", "--email", "ann@example.com", "--password-stdin"], server: server.url, input: "pw\n")
            #expect(login.exitCode == 65 && login.standardError.contains("is not a time ahead: nothing was stored"), "\(login.standardError)")
            #expect(!FileManager.default.fileExists(atPath: sessionFile))
        }
    }
}
