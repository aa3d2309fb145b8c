import ConnCore
import ConnProtocol
import Foundation

/// What one delivery attempt came to, and so what happens to the message next.
public enum DeliveryOutcome: Sendable, Equatable {
    /// Stored by the server (first time or replayed for the same key).
    case sent(uid: String, dateTime: String, replayed: Bool, status: Int)
    /// Worth trying again: a network error, 5xx, 429, 409. `retryAfter` is the server's wish.
    case retry(code: String, message: String, status: Int?, retryAfter: Duration?)
    /// The server refused the message itself (400, 413, 422, other 4xx).
    case rejected(code: String, message: String, status: Int)
    /// The server refused the credentials (401, 403), or the proxy wants its own (407).
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
        case .sent(let uid, _, let replayed, let status):
            (uid.isEmpty ? "delivered: the server answered \(status)" : "stored as \(uid)") + (replayed ? " (replayed: the server already had it)" : "")
        case .retry(_, let message, _, _), .rejected(_, let message, _), .auth(_, let message, _): message
        }
    }

    /// Classifies the server's answer to `POST /messages` for `submission` sent with `key`.
    ///
    /// Delivery is proven by the answer's content, never by its status: a 2xx counts only when
    /// its body is the protocol's acceptance of this very message (a captive portal answers 200
    /// with a login page). A 3xx is never followed for a POST (clients turn 301/302/303 into a
    /// GET, 307/308 re-post the body wherever they point): it is retried later with the same key.
    public static func classify(_ response: HTTPExchangeResponse, submission: MessageSubmission, key: String, now: Date) -> DeliveryOutcome {
        let status = response.status
        switch HTTPStatusClass(status) {
        case .success:
            guard let accepted = try? JSONDecoder().decode(MessageAccepted.self, from: response.body),
                accepted.isAcceptance(of: submission, idempotencyKey: key)
            else {
                return unproven(response)
            }
            let replayed = response.header(ConnProtocol.replayedHeader)?.lowercased() == "true"
            return .sent(uid: accepted.uid, dateTime: accepted.dateTime, replayed: replayed, status: status)
        case .redirect, .notModified:
            let location = response.header("Location").map { " to \($0.prefix(200))" } ?? ""
            return .retry(code: "redirected",
                          message: "the server answered \(status), a redirect\(location), not the message's acceptance (a captive portal or a proxy's login page?); redirects are not followed for messages",
                          status: status, retryAfter: Backoff.retryAfter(response.header("Retry-After"), now: now))
        case .authRefused:
            let (code, message) = refusal(response)
            return .auth(code: code, message: message, status: status)
        case .tryLater:
            let (code, message) = refusal(response)
            return .retry(code: code, message: message, status: status,
                          retryAfter: Backoff.retryAfter(response.header("Retry-After"), now: now))
        case .refused:
            let (code, message) = refusal(response)
            return .rejected(code: code, message: message, status: status)
        }
    }

    /// The code and words of an answer that is not an acceptance: the API's error body if it is
    /// one, else the status. Read only for those (an acceptance is not decoded twice).
    private static func refusal(_ response: HTTPExchangeResponse) -> (code: String, message: String) {
        let status = response.status
        guard let apiError = try? JSONDecoder().decode(APIErrorBody.self, from: response.body) else {
            return ("http\(status)", "the server answered \(status)")
        }
        return (apiError.error.code, "\(status): \(apiError.error.message)")
    }

    /// A 2xx that does not accept this message: a portal's page, or an answer that proves nothing.
    /// Retrying is safe (the same Idempotency-Key is replayed, never stored twice).
    private static func unproven(_ response: HTTPExchangeResponse) -> DeliveryOutcome {
        if response.looksLikeHTMLPage {
            return .retry(code: "portal",
                          message: "the server answered \(response.status) with an HTML page instead of accepting the message (a captive portal?)",
                          status: response.status, retryAfter: nil)
        }
        return .retry(code: "unprovenDelivery",
                      message: "the server answered \(response.status) without the protocol's acceptance of this message (uid and the message as sent)",
                      status: response.status, retryAfter: nil)
    }

    /// Classifies a failure to get an answer at all: worth retrying, but for a proxy that wants
    /// credentials (407), which pauses the queue as a 401 does: every message would meet it.
    public static func classify(_ error: any Error) -> DeliveryOutcome {
        if let connError = error as? ConnError, connError.code == .proxyAuthRequired {
            return .auth(code: connError.code.rawValue, message: connError.message, status: 407)
        }
        if let connError = error as? ConnError {
            return .retry(code: connError.code.rawValue, message: connError.message, status: nil, retryAfter: nil)
        }
        return .retry(code: "unreachable", message: String(describing: error), status: nil, retryAfter: nil)
    }
}
