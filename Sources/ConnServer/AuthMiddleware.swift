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

    static func isAuthorized(_ header: String?, token: String) -> Bool {
        guard let header, header.hasPrefix("Bearer ") else { return false }
        return constantTimeEqual(Array(header.dropFirst("Bearer ".count).utf8), Array(token.utf8))
    }

    /// Compares without an early exit, so timing does not reveal how much of a guess was right.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
