import ConnProtocol
import Foundation
import HTTPTypes
import Hummingbird

/// An error answer with a JSON body: `{"error":{"code":"…","message":"…"}}`.
struct APIError: HTTPResponseError {
    let status: HTTPResponse.Status
    let code: String
    let message: String
    var headers: HTTPFields = [:]

    func response(from request: Request, context: some RequestContext) throws -> Response {
        JSONResponse.make(APIErrorBody(code: code, message: message), status: status, headers: headers)
    }

    static func badRequest(_ code: String, _ message: String) -> APIError { APIError(status: .badRequest, code: code, message: message) }
}

/// Turns every other error (Hummingbird's 404s and 405s, decoding errors, bugs) into a JSON answer,
/// so a client never has to parse an empty or HTML error body.
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            throw error
        } catch let error as HTTPError {
            let code = switch error.status {
            case .notFound: "notFound"
            case .methodNotAllowed: "methodNotAllowed"
            case .contentTooLarge: "bodyTooLarge"
            default: "httpError"
            }
            let message = error.body ?? (error.status == .notFound ? "no resource at \(request.uri.path)" : error.status.reasonPhrase)
            throw APIError(status: error.status, code: code, message: message)
        } catch {
            context.logger.error("unhandled error: \(error)")
            throw APIError(status: .internalServerError, code: "internal", message: "internal error")
        }
    }
}

enum JSONResponse {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static func make<Body: Encodable>(_ body: Body, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        let data = (try? encoder.encode(body)) ?? Data(#"{"error":{"code":"internal","message":"encoding failed"}}"#.utf8)
        return make(data: data, status: status, headers: headers)
    }

    static func make(data: Data, status: HTTPResponse.Status, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
