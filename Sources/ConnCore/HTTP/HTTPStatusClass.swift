import Foundation

/// What an HTTP status says about a request to the back end, before its body is read: one reading
/// shared by every command (inbox fetch, delivery, the clock's /time), so that a refused token is
/// 77 everywhere and a server asking to try later is 75 everywhere.
///
/// Success is only a precondition: what proves that the answer is the one asked for is its body
/// (the delivery proof, the inbox document, the time sample).
public enum HTTPStatusClass: Sendable, Equatable {
    /// 2xx.
    case success
    /// 304: the cached copy is current (only for a conditional GET).
    case notModified
    /// Any other 3xx: a redirect conn did not follow.
    case redirect
    /// 401, 403: the credentials were refused.
    case authRefused
    /// 5xx, and 408, 409, 425, 429: the server asks to try again later (409: the same
    /// Idempotency-Key is still in flight).
    case tryLater
    /// Any other 4xx, and what is not a status at all: this request will not succeed as it is.
    case refused

    public init(_ status: Int) {
        switch status {
        case 200...299: self = .success
        case 304: self = .notModified
        case 300...399: self = .redirect
        case 401, 403: self = .authRefused
        case 408, 409, 425, 429, 500...599: self = .tryLater
        default: self = .refused
        }
    }
}

extension ConnError {
    /// The error for an answer whose status is not the one wanted (`expected` says what was asked
    /// for: "the inbox", "the server's time"): `authRefused` (77) for refused credentials,
    /// `serverError` (75) when the server asks to try later, `httpStatus` (69) otherwise.
    public static func unexpectedStatus(_ status: Int, from url: URL, expected: String, hint: String? = nil) -> ConnError {
        let target = url.absoluteString
        switch HTTPStatusClass(status) {
        case .authRefused:
            return ConnError(code: .authRefused, message: "\(target) refused the credentials (\(status))",
                             hint: "Check the token (CONN_TOKEN or `token:` in the config file), or sign in again: conn login.", exitStatus: .permission)
        case .tryLater:
            return .temporary(.serverError, "\(target) answered \(status), not \(expected)", hint: "Try again later.")
        case .success, .notModified, .redirect, .refused:
            return .unavailable(.httpStatus, "\(target) answered \(status), not \(expected)", hint: hint)
        }
    }
}
