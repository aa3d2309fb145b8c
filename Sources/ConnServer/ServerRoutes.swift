import ConnProtocol
import Foundation
import HTTPTypes
import Hummingbird

/// The HTTP resources of the protocol (docs/protocol.md).
enum ServerRoutes {
    static func build(store: MailStore, clock: ServerClock, hub: WebSocketHub, options: ServerOptions,
                      authenticator: Authenticator) -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.middlewares.add(JSONErrorMiddleware())
        if authenticator.isRequired { router.middlewares.add(AuthMiddleware(authenticator: authenticator)) }

        let session = SessionEndpoint(sessions: authenticator.sessions)
        router.post("/session") { request, _ in try await session.signIn(request) }
        router.delete("/session") { request, _ in session.signOut(request) }

        router.get("/health") { _, _ in Response(status: .noContent) }

        router.get("/inbox") { request, _ in
            let (etag, body) = try store.inboxBody()
            let headers: HTTPFields = [.eTag: etag, .cacheControl: "no-cache"]
            if let tags = request.headers[.ifNoneMatch], tags.split(separator: ",").contains(where: {
                let tag = $0.trimmingCharacters(in: .whitespaces)
                return tag == etag || tag == "*" || tag == "W/" + etag
            }) {
                return Response(status: .notModified, headers: headers)
            }
            return JSONResponse.make(data: body, status: .ok, headers: headers)
        }

        let messages = MessageEndpoint(store: store, clock: clock, hub: hub, userEmail: options.userEmail, maxBodyBytes: options.maxBodyBytes)
        router.post("/messages") { request, context in try await messages.handle(request, context: context) }

        router.get("/time") { _, _ in
            let t2 = clock.nowPreciseMS()
            var sample = TimeSample(t2: t2, t3: 0)
            sample.t3 = clock.nowPreciseMS()
            return JSONResponse.make(sample, headers: [
                .cacheControl: "no-store",
                HTTPField.Name(ConnProtocol.timeHeader)!: "t2=\(sample.t2), t3=\(sample.t3)",
            ])
        }

        // Reached only when a request to /ws is not a valid WebSocket upgrade.
        router.get("/ws") { _, _ -> Response in
            throw APIError(status: .upgradeRequired, code: "upgradeRequired",
                           message: "/ws is a WebSocket resource: connect with an Upgrade: websocket request",
                           headers: [.upgrade: "websocket"])
        }
        return router
    }

    /// What a captive portal answers to everything.
    static let portalPage = """
        <!DOCTYPE html>
        <html><head><title>Sign in to Wi-Fi</title></head>
        <body><h1>Welcome to Guest Wi-Fi</h1>
        <form method="post" action="/portal/login"><input name="room"><button>Connect</button></form>
        </body></html>
        """
}
