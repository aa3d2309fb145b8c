import ConnProtocol
import Foundation
import HTTPTypes
import Hummingbird

/// `POST /messages`: validate, then store exactly once per Idempotency-Key.
struct MessageEndpoint: Sendable {
    let store: MailStore
    let clock: ServerClock
    let hub: WebSocketHub
    let userEmail: String
    let maxBodyBytes: Int

    func handle(_ request: Request, context: some RequestContext) async throws -> Response {
        guard let keyText = request.headers[HTTPField.Name(ConnProtocol.idempotencyKeyHeader)!] else {
            throw APIError.badRequest("missingIdempotencyKey", "send an Idempotency-Key header with a UUID, the same on every retry of this message")
        }
        guard let uuid = UUID(uuidString: keyText) else {
            throw APIError.badRequest("invalidIdempotencyKey", "Idempotency-Key '\(keyText.prefix(80))' is not a UUID")
        }
        // One key however it is spelled: a UUID in upper and in lower case is the same key.
        let key = uuid.uuidString.lowercased()
        var request = request
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: maxBodyBytes)
        } catch {
            throw APIError(status: .contentTooLarge, code: "bodyTooLarge", message: "the body is larger than \(maxBodyBytes) bytes")
        }
        let submission = try Self.decode(Data(buffer: body))
        try Self.validate(submission)

        let fingerprint = try Self.fingerprint(submission)
        switch try store.begin(key: key, fingerprint: fingerprint) {
        case .replay(let status, let data):
            return JSONResponse.make(data: data, status: .init(code: status), headers: [HTTPField.Name(ConnProtocol.replayedHeader)!: "true"])
        case .inFlight:
            throw APIError(status: .conflict, code: "requestInFlight", message: "a request with Idempotency-Key \(key) is still being handled; retry later",
                           headers: [.retryAfter: "1"])
        case .mismatch:
            throw APIError(status: .unprocessableContent, code: "idempotencyKeyReused",
                           message: "Idempotency-Key \(key) was already used with a different body")
        case .proceed:
            break
        }
        do {
            let dateTime = clock.isoTimestamp()
            let (email, data) = try store.complete(key: key) { uid in
                Email(uid: uid, from: userEmail, to: submission.to, subject: submission.subject, text: submission.text,
                      responseToUid: submission.responseToUid ?? "", dateTime: dateTime)
            }
            await hub.broadcast(.newMail(email))
            return JSONResponse.make(data: data, status: .created, headers: [.location: "/messages/\(email.uid)"])
        } catch {
            store.abandon(key: key)
            throw error
        }
    }

    /// Decodes the body, naming the field and what was wrong when it cannot.
    static func decode(_ data: Data) throws -> MessageSubmission {
        do {
            return try JSONDecoder().decode(MessageSubmission.self, from: data)
        } catch let DecodingError.keyNotFound(key, _) {
            throw APIError.badRequest("invalidBody", "the body lacks the field '\(key.stringValue)'; expected {to, subject, text, responseToUid}")
        } catch let DecodingError.typeMismatch(_, context) where context.codingPath.isEmpty {
            throw APIError.badRequest("malformedJSON", "the body must be a JSON object {to, subject, text, responseToUid}")
        } catch let DecodingError.typeMismatch(type, context) {
            let field = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw APIError.badRequest("invalidBody", "field '\(field)' must be \(type == String.self ? "a string" : "\(type)")")
        } catch let DecodingError.valueNotFound(_, context) {
            let field = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw APIError.badRequest("invalidBody", "field '\(field)' must not be null")
        } catch {
            throw APIError.badRequest("malformedJSON", "the body is not valid JSON; expected an object {to, subject, text, responseToUid}")
        }
    }

    /// Every recipient (comma-separated) must be a valid address.
    static func validate(_ submission: MessageSubmission) throws {
        let recipients = submission.to.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard !recipients.isEmpty else {
            throw APIError(status: .unprocessableContent, code: "invalidAddress", message: "'to' is empty: name at least one recipient")
        }
        for recipient in recipients where !EmailAddress.isValid(recipient) {
            throw APIError(status: .unprocessableContent, code: "invalidAddress", message: "'\(recipient.prefix(200))' is not a valid e-mail address")
        }
    }

    /// The body's meaning, independent of key order and whitespace: two requests with the same
    /// fingerprint are the same message.
    static func fingerprint(_ submission: MessageSubmission) throws -> String {
        var normalized = submission
        normalized.responseToUid = submission.responseToUid ?? ""
        return String(decoding: try JSONResponse.encoder.encode(normalized), as: UTF8.self)
    }
}
