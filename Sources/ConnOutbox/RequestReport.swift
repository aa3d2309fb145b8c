import ConnCore
import Foundation

/// A request of the outbox as commands print it (`request` in outbox JSON): what is sent, with
/// secret headers' values never shown.
public struct RequestReport: Encodable, Sendable {
    public let method: String
    public let url: String
    /// `Name: value` each, in the order sent; a secret one reads `Name: (secret, not shown)`.
    public let headers: [String]
    public let bodyBytes: Int
    /// The body as text (when it is UTF-8), or base64: only in `outbox show`.
    public let body: String?
    public let bodyBase64: String?
    /// The statuses that prove delivery; null: any 2xx.
    public let expect: [Int]?
    /// The header carrying the idempotency key; null: none is sent (at least once).
    public let idempotencyHeader: String?

    init(_ request: StoredRequest, includeBody: Bool) {
        method = request.method
        url = request.url
        headers = request.shownHeaders
        bodyBytes = request.body?.count ?? 0
        let shown = includeBody ? request.body.map(BodyText.init) : nil
        body = shown?.text
        bodyBase64 = shown?.base64
        expect = request.expect
        idempotencyHeader = request.keyHeader
    }
}

/// The server's answer kept with a request (`answer` in outbox JSON).
public struct AnswerReport: Encodable, Sendable {
    public let status: Int
    /// Location, ETag, Content-Type, when the server sent them.
    public let headers: [String: String]
    /// The kept body as text (when it is UTF-8), else base64; at most 64 KiB of it.
    public let body: String?
    public let bodyBase64: String?
    /// The whole body's size, and whether more than the kept part came.
    public let bodyBytes: Int
    public let truncated: Bool

    init(_ answer: KeptAnswer) {
        status = answer.status
        headers = answer.headers
        let shown = BodyText(answer.body)
        body = shown.text
        bodyBase64 = shown.base64
        bodyBytes = answer.bytes
        truncated = answer.truncated
    }
}
