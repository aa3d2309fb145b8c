import ConnCore
import ConnProtocol
import Foundation

/// What one delivery attempt came to, and so what happens to the message next.
public enum DeliveryOutcome: Sendable, Equatable {
    /// Stored by the server (first time or replayed for the same key).
    case sent(uid: String?, dateTime: String?, replayed: Bool, status: Int)
    /// Worth trying again: a network error, 5xx, 429, 409. `retryAfter` is the server's wish.
    case retry(code: String, message: String, status: Int?, retryAfter: Duration?)
    /// The server refused the message itself (400, 413, 422, other 4xx).
    case rejected(code: String, message: String, status: Int)
    /// The server refused the credentials (401, 403).
    case auth(code: String, message: String, status: Int)

    public var label: String {
        switch self {
        case .sent: "sent"
        case .retry: "retry"
        case .rejected: "rejected"
        case .auth: "auth"
        }
    }

    var status: Int? {
        switch self {
        case .sent(_, _, _, let status), .rejected(_, _, let status), .auth(_, _, let status): status
        case .retry(_, _, let status, _): status
        }
    }

    var code: String? {
        switch self {
        case .sent: nil
        case .retry(let code, _, _, _), .rejected(let code, _, _), .auth(let code, _, _): code
        }
    }

    var message: String? {
        switch self {
        case .sent(let uid, _, let replayed, _): "stored as \(uid ?? "(uid unreadable)")\(replayed ? " (replayed: the server already had it)" : "")"
        case .retry(_, let message, _, _), .rejected(_, let message, _), .auth(_, let message, _): message
        }
    }

    /// Classifies the server's answer to `POST /messages`.
    public static func classify(_ response: HTTPExchangeResponse, now: Date) -> DeliveryOutcome {
        let status = response.status
        let apiError = try? JSONDecoder().decode(APIErrorBody.self, from: response.body)
        let code = apiError?.error.code ?? "http\(status)"
        let message = apiError.map { "\(status): \($0.error.message)" } ?? "the server answered \(status)"
        switch status {
        case 200...299:
            let accepted = try? JSONDecoder().decode(MessageAccepted.self, from: response.body)
            let replayed = response.header(ConnProtocol.replayedHeader)?.lowercased() == "true"
            return .sent(uid: accepted?.uid, dateTime: accepted?.dateTime, replayed: replayed, status: status)
        case 401, 403:
            return .auth(code: code, message: message, status: status)
        case 408, 409, 425, 429, 500...:
            return .retry(code: code, message: message, status: status,
                          retryAfter: Backoff.retryAfter(response.header("Retry-After"), now: now))
        default:
            return .rejected(code: code, message: message, status: status)
        }
    }

    /// Classifies a failure to get an answer at all: always worth retrying.
    public static func classify(_ error: any Error) -> DeliveryOutcome {
        if let connError = error as? ConnError {
            return .retry(code: connError.code, message: connError.message, status: nil, retryAfter: nil)
        }
        return .retry(code: "unreachable", message: String(describing: error), status: nil, retryAfter: nil)
    }
}
