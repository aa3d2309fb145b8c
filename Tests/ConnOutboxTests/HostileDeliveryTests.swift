import ConnTestSupport
import Foundation
import Testing

/// Delivery is proven by the answer's content, never by a status code: captive portals, redirects
/// and answers that accept nothing leave the message queued, and a redirect never carries the
/// message (or the token) to another host. A hostile server plays the network (BadServer).
@Suite("conn send against hostile servers")
struct HostileDeliveryTests {
    let home: TemporaryDirectory

    init() throws { home = try TemporaryDirectory() }


    static let send = ["send", "--to", "ada@example.com", "--subject", "hello", "--text", "the text", "--json"]

    /// Sends once against `server`; expects the message queued (not sent) with `code` as its last error.
    func expectQueued(_ server: URL, code: String, env: [String: String] = [:]) async throws -> String {
        let outcome = try await home.conn(Self.send, server: server, env: env)
        #expect(outcome.exitCode == 0, "\(outcome.standardError)")
        let report = try outcome.json()
        #expect(report["state"] as? String == "pending", "\(report)")
        let id = try #require(report["id"] as? String)
        let shown = try (try await home.conn(["outbox", "show", id, "--json"], server: server)).json()
        #expect(shown["state"] as? String == "pending")
        #expect(shown["lastErrorCode"] as? String == code, "\(shown)")
        return id
    }

    @Test("a portal's 200 HTML page is not delivery: the message stays queued (portal), then the real server gets it once")
    func portalPage() async throws {
        let page = "<html><body><form action=/login>Accept the terms</form></body></html>"
        var queued: [String] = []
        try await BadServer.with([.answer(nil, "*", status: 200, contentType: "text/html", body: page)]) { portal in
            queued.append(try await expectQueued(portal.url, code: "portal"))
            #expect(try portal.requests().filter { $0.method == "POST" }.count == 1)
        }
        // conn-server's own portal mode, and a 2xx JSON answer that accepts nothing.
        let portalServer = try await BackgroundServer.start(["--portal"])
        queued.append(try await expectQueued(portalServer.url, code: "portal"))
        try await BadServer.with([.answer("POST", "/messages", status: 200, body: #"{"ok":true}"#)]) { liar in
            queued.append(try await expectQueued(liar.url, code: "unprovenDelivery"))
        }
        // The answer for another message (a replaying proxy's cache) proves nothing either.
        let other = #"{"uid":"m1","dateTime":"x","message":{"uid":"m1","from":"a@b.cc","to":"ada@example.com","subject":"another","text":"the text","responseToUid":"","dateTime":"x"}}"#
        try await BadServer.with([.answer("POST", "/messages", status: 201, body: other)]) { liar in
            queued.append(try await expectQueued(liar.url, code: "unprovenDelivery"))
        }

        // Each was queued for the server that lied; the real one gets them once they are moved there.
        let server = try await BackgroundServer.start()
        #expect(try await home.conn(["outbox", "retarget"] + queued, server: server.url).exitCode == 0)
        let flushed = try await home.conn(["outbox", "flush", "--json"], server: server.url)
        #expect(flushed.exitCode == 0, "\(flushed.standardError)")
        #expect(try flushed.json()["sent"] as? Int == 4)
        #expect(try await server.inbox().count == 4)
    }

    @Test("redirects are never followed for a message: 301, 302, 303, 307 and 308 to another host leave it queued and that host hears nothing",
          arguments: [301, 302, 303, 307, 308])
    func redirectsNotFollowed(status: Int) async throws {
        try await BadServer.with([.answer(nil, "*", status: 201, body: "{}")], host: "127.0.0.2") { thirdParty in
            let elsewhere = thirdParty.url.absoluteString + "/messages"
            try await BadServer.with([.redirect("POST", "/messages", status: status, to: elsewhere)]) { proxy in
                _ = try await expectQueued(proxy.url, code: "redirected", env: ["CONN_TOKEN": "s3cret-token"])
                let posts = try proxy.requests()
                #expect(posts.count == 1 && posts[0].header("Authorization") == "Bearer s3cret-token")
            }
            #expect(try thirdParty.requests().isEmpty, "the redirect target was contacted")
        }
    }

    @Test("send --wait against a portal ends 75 (still waiting), not 0")
    func waitAgainstPortal() async throws {
        let portalServer = try await BackgroundServer.start(["--portal"])
        let outcome = try await home.conn(Self.send + ["--wait", "2s"], server: portalServer.url)
        #expect(outcome.exitCode == 75, "\(outcome.standardError)")
        #expect(try outcome.json()["state"] as? String == "pending")
        #expect(outcome.standardError.contains("HTML page"), "\(outcome.standardError)")
    }
}
