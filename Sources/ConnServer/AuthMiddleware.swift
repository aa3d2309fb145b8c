import HTTPTypes
import Hummingbird

/// Who may use the resources: the server's own token (`--token`) and the sessions of signed-in
/// accounts (`--account`, `POST /session`). When neither is set up, everyone may.
struct Authenticator: Sendable {
    let token: String?
    let sessions: SessionStore

    var isRequired: Bool { token != nil || sessions.hasAccounts }

    /// Whether an `Authorization` header lets its request through.
    func authorizes(_ header: String?) -> Bool {
        guard isRequired else { return true }
        guard let credentials = Self.bearerCredentials(header) else { return false }
        if let token, Self.constantTimeEqual(Array(credentials.utf8), Array(token.utf8)) { return true }
        return sessions.isValid(token: credentials)
    }

    /// The credentials of a `Bearer` header. The scheme is case-insensitive (RFC 9110, 11.1:
    /// `bearer`, `BEARER` are `Bearer`) and is followed by one or more spaces.
    static func bearerCredentials(_ header: String?) -> String? {
        guard let header else { return nil }
        let bytes = Array(header.utf8)
        let scheme = Array("bearer".utf8)
        guard bytes.count > scheme.count, zip(bytes, scheme).allSatisfy({ $0 | 0x20 == $1 }), bytes[scheme.count] == 0x20 else { return nil }
        let credentials = bytes[scheme.count...].drop { $0 == 0x20 }
        return credentials.isEmpty ? nil : String(decoding: credentials, as: UTF8.self)
    }

    /// Compares without an early exit, so timing does not reveal how much of a guess was right.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

/// Requires a bearer token (the server's, or a session's) on every resource but /health (so a
/// load balancer or `conn probe` can check liveness without a secret) and /session (where one
/// signs in and out).
struct AuthMiddleware<Context: RequestContext>: RouterMiddleware {
    let authenticator: Authenticator

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        if path == "/health" || path == "/session" || authenticator.authorizes(request.headers[.authorization]) {
            return try await next(request, context)
        }
        let message = request.headers[.authorization] == nil
            ? "this server requires a bearer token: send Authorization: Bearer <token>"
            : "the bearer token is not valid"
        throw APIError(status: .unauthorized, code: "unauthorized", message: message, headers: [.wwwAuthenticate: "Bearer"])
    }
}
