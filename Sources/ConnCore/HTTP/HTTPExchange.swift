import Foundation
import NIOHTTP1

/// One HTTP request as conn's commands describe it, independent of the client library.
public struct HTTPExchangeRequest: Sendable {
    public var method: HTTPMethod
    public var url: URL
    public var headers: [(String, String)]
    public var body: Data?
    /// Overrides the configured timeout for this request only.
    public var timeout: Duration?
    /// Larger answers are refused rather than read into memory.
    public var maxResponseBytes: Int
    /// What to do with a 3xx answer.
    public var redirects: RedirectPolicy
    /// Keep only this many bytes of the answer's body and read the rest (up to
    /// `maxResponseBytes`) without keeping it: an answer kept for a person or a script, whose
    /// size the server chooses.
    public var keepsFirstBytes: Int?
    /// Told the bytes of the answer's body received so far, and how many are announced
    /// (Content-Length), as they arrive: for a progress line.
    public var onBodyProgress: (@Sendable (_ received: Int, _ expected: Int?) -> Void)?
    /// Write the answer's body here instead of into memory (up to `maxResponseBytes`): the
    /// response's `body` is then empty and `receivedBodyBytes` its size. Emptied first, and again
    /// at each redirect.
    public var bodyFile: ResponseBodyFile?

    /// `redirects` defaults to `.sameOrigin` for GET and HEAD and to `.none` for every other
    /// method: a redirected POST is never re-sent anywhere.
    public init(
        method: HTTPMethod = .GET, url: URL, headers: [(String, String)] = [], body: Data? = nil,
        timeout: Duration? = nil, maxResponseBytes: Int = 256 * 1024 * 1024, redirects: RedirectPolicy? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
        self.redirects = redirects ?? (method == .GET || method == .HEAD ? .sameOrigin : .none)
    }
}

/// What the transport does with a redirect.
public enum RedirectPolicy: Sendable, Equatable {
    /// Return the 3xx as the answer.
    case none
    /// Follow up to 5 redirects that stay on the request's origin (same scheme, host and port, so
    /// never https → http); a redirect that leaves it is an error naming both ends.
    case sameOrigin
}

/// The answer, fully read.
public struct HTTPExchangeResponse: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: Data
    /// From sending the request to the last byte of the answer.
    public var elapsed: Duration
    /// The URL that gave this answer: the request's, or where same-origin redirects led.
    public var url: URL?
    /// The body's whole size when only its first bytes were kept (`keepsFirstBytes`) or the
    /// body went to a file (`bodyFile`).
    public var receivedBodyBytes: Int?

    public init(status: Int, headers: [(String, String)], body: Data, elapsed: Duration, url: URL? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.elapsed = elapsed
        self.url = url
    }

    public func header(_ name: String) -> String? {
        headers.first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
    }

    /// The headers of `names` the server sent, under those names, each cut at 2,000 characters:
    /// what is kept of an answer (a request's, a cached copy's).
    public func headers(named names: [String]) -> [String: String] {
        var kept: [String: String] = [:]
        for name in names {
            if let value = header(name) { kept[name] = String(value.prefix(2000)) }
        }
        return kept
    }
}
