import HTTPTypes
import Hummingbird

/// Requires `Authorization: Bearer <token>` on every resource but /health (so a load balancer or
/// `conn probe` can check liveness without a secret).
struct AuthMiddleware<Context: RequestContext>: RouterMiddleware {
    let token: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.uri.path == "/health" || Self.isAuthorized(request.headers[.authorization], token: token) {
            return try await next(request, context)
        }
        let message = request.headers[.authorization] == nil
            ? "this server requires a bearer token: send Authorization: Bearer <token>"
            : "the bearer token is not valid"
        throw APIError(status: .unauthorized, code: "unauthorized", message: message, headers: [.wwwAuthenticate: "Bearer"])
    }

    /// The scheme is case-insensitive (RFC 9110, 11.1: `bearer`, `BEARER` are `Bearer`) and is
    /// followed by one or more spaces; the token itself is compared exactly.
    static func isAuthorized(_ header: String?, token: String) -> Bool {
        guard let header else { return false }
        let bytes = Array(header.utf8)
        let scheme = Array("bearer".utf8)
        guard bytes.count > scheme.count, zip(bytes, scheme).allSatisfy({ $0 | 0x20 == $1 }), bytes[scheme.count] == 0x20 else { return false }
        let credentials = bytes[scheme.count...].drop { $0 == 0x20 }
        return constantTimeEqual(Array(credentials), Array(token.utf8))
    }

    /// Compares without an early exit, so timing does not reveal how much of a guess was right.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
