import ConnProtocol
import Foundation
import HTTPTypes
import Hummingbird

/// `POST /session` (sign in: e-mail and password → a bearer token) and `DELETE /session` (sign
/// out: the token of the request ends).
struct SessionEndpoint: Sendable {
    let sessions: SessionStore
    /// A body larger than this is not a sign-in.
    static let maximumBodyBytes = 16 * 1024

    func signIn(_ request: Request) async throws -> Response {
        guard sessions.hasAccounts else {
            throw APIError(status: .notFound, code: "signInDisabled",
                           message: "this server has no accounts to sign in to (start it with --account EMAIL:PASSWORD)")
        }
        var request = request
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: Self.maximumBodyBytes)
        } catch {
            throw APIError(status: .contentTooLarge, code: "bodyTooLarge", message: "the body is larger than \(Self.maximumBodyBytes) bytes")
        }
        guard let credentials = try? JSONDecoder().decode(SessionRequest.self, from: Data(buffer: body)) else {
            throw APIError.badRequest("invalidBody", #"send {"email": "…", "password": "…"} as JSON"#)
        }
        guard let grant = sessions.signIn(email: credentials.email, password: credentials.password) else {
            // A moment's pause makes guessing slow without holding a thread.
            try await Task.sleep(for: .milliseconds(200))
            throw APIError(status: .unauthorized, code: "badCredentials", message: "unknown e-mail address or wrong password")
        }
        return JSONResponse.make(grant, status: .created, headers: [.cacheControl: "no-store"])
    }

    func signOut(_ request: Request) -> Response {
        if let token = Authenticator.bearerCredentials(request.headers[.authorization]) { sessions.signOut(token: token) }
        return Response(status: .noContent)
    }
}
