import ConnCore
import Foundation
import GRDB

/// One message in the outbox, as stored.
public struct OutboxMessage: Sendable, Equatable {
    /// Stored as its raw value; SQL takes it as a bound argument (`\(State.pending)` in GRDB's
    /// interpolation), so a state is spelled in one place.
    public enum State: String, Sendable, CaseIterable, Codable, DatabaseValueConvertible {
        /// Waiting for delivery (shown as "sending", as Wire does).
        case pending
        /// Leased by one deliverer that is sending it now.
        case sending
        case sent
        case failed
    }

    /// A message of the protocol (`conn send`) or any HTTP request (`conn request`).
    public enum Kind: String, Sendable, Codable, DatabaseValueConvertible {
        case message, request
    }

    public enum FailureReason: String, Sendable, Codable, DatabaseValueConvertible {
        /// The server refused the message itself (400, 413, 422…): resending it unchanged will not help.
        case rejected
        /// The server refused the credentials (401, 403); the queue is paused.
        case auth
        /// Not delivered within the outbox expiry.
        case expired
    }

    /// A UUID; also the Idempotency-Key of every attempt.
    public var id: String
    public var to: String
    public var subject: String
    public var text: String
    public var responseToUid: String?
    public var createdAt: Date
    public var state: State
    public var failureReason: FailureReason?
    public var lastErrorCode: String?
    public var lastError: String?
    public var attempts: Int
    public var nextAttemptAt: Date
    public var notBefore: Date?
    public var leaseOwner: String?
    public var leaseExpiresAt: Date?
    public var sentAt: Date?
    public var serverUid: String?
    public var serverDateTime: String?
    /// The server it is for (`OutboxTarget.origin`); nil for a message queued with no server
    /// configured (or by an older conn), until a deliverer claims it.
    public var origin: String?
    public var messagesURL: String?
    public var profile: String?
    public var queuedOrigin: String?
    public var kind: Kind = .message
    /// The request, for a request (its `to`, `subject` and `text` are empty).
    public var request: StoredRequest?
    /// What the server answered the request's last attempt that had an answer worth keeping.
    public var answer: KeptAnswer?

    /// What the server it is for sees as the Idempotency-Key.
    public var idempotencyKey: String { OutboxTarget.idempotencyKey(id: id, origin: origin, queuedOrigin: queuedOrigin) }

    /// The first eight characters: what people type and read.
    public var shortID: String { String(id.prefix(8)) }

    /// What a person sees, as in Wire: a message waiting to go out is "sending".
    public var displayState: String {
        switch state {
        case .pending, .sending: "sending"
        case .sent: "sent"
        case .failed: "failed (\(failureReason?.rawValue ?? "unknown"))"
        }
    }

    /// The columns every query of messages selects (`SELECT \(columns) FROM outboxMessage`), in
    /// this order, which `init(row:)` reads them by.
    static let columnNames = [
        "id", "toAddress", "subject", "text", "responseToUid", "createdAt", "state", "failureReason", "lastErrorCode", "lastError",
        "attempts", "nextAttemptAt", "notBefore", "leaseOwner", "leaseExpiresAt", "sentAt", "serverUid", "serverDateTime",
        "origin", "messagesURL", "profile", "queuedOrigin",
        "kind", "requestMethod", "requestURL", "requestHeaders", "requestBody", "expectStatuses", "keyHeader",
        "answerStatus", "answerHeaders", "answerBody", "answerBytes",
    ]
    static let columns = columnNames.joined(separator: ", ")

    /// Each column's position in a row of `columns`. Reading by position, not by name: GRDB finds
    /// a name by lowercasing every column's name for each value read, which was 40 % of
    /// `conn outbox list` with 600 messages.
    private static let position = Dictionary(uniqueKeysWithValues: columnNames.enumerated().map { ($1, $0) })

    /// A message from a row that selected `columns`.
    init(row: Row) {
        assert(row.columnNames.elementsEqual(Self.columnNames), "a row of outboxMessage that did not select OutboxMessage.columns")
        func column(_ name: String) -> Int { Self.position[name]! }
        id = row[column("id")]
        to = row[column("toAddress")]
        subject = row[column("subject")]
        text = row[column("text")]
        responseToUid = row[column("responseToUid")]
        createdAt = Date(timeIntervalSince1970: row[column("createdAt")])
        state = State(rawValue: row[column("state")]) ?? .pending
        failureReason = (row[column("failureReason")] as String?).flatMap(FailureReason.init(rawValue:))
        lastErrorCode = row[column("lastErrorCode")]
        lastError = row[column("lastError")]
        attempts = row[column("attempts")]
        nextAttemptAt = Date(timeIntervalSince1970: row[column("nextAttemptAt")])
        notBefore = (row[column("notBefore")] as Double?).map(Date.init(timeIntervalSince1970:))
        leaseOwner = row[column("leaseOwner")]
        leaseExpiresAt = (row[column("leaseExpiresAt")] as Double?).map(Date.init(timeIntervalSince1970:))
        sentAt = (row[column("sentAt")] as Double?).map(Date.init(timeIntervalSince1970:))
        serverUid = row[column("serverUid")]
        serverDateTime = row[column("serverDateTime")]
        origin = row[column("origin")]
        messagesURL = row[column("messagesURL")]
        profile = row[column("profile")]
        queuedOrigin = row[column("queuedOrigin")]
        kind = Kind(rawValue: row[column("kind")] ?? "message") ?? .message
        if kind == .request {
            let expect: String? = row[column("expectStatuses")]
            request = StoredRequest(method: row[column("requestMethod")] ?? "POST", url: row[column("requestURL")] ?? "",
                                    headers: StoredJSON.value([StoredRequest.Header].self, from: row[column("requestHeaders")]) ?? [],
                                    body: row[column("requestBody")], expect: StoredJSON.value([Int].self, from: expect),
                                    keyHeader: row[column("keyHeader")])
        }
        if let status: Int = row[column("answerStatus")] {
            let body: Data = row[column("answerBody")] ?? Data()
            answer = KeptAnswer(status: status, headers: StoredJSON.value([String: String].self, from: row[column("answerHeaders")]) ?? [:], body: body,
                                bytes: row[column("answerBytes")] ?? body.count)
        }
    }
}

/// One delivery attempt from the audit log.
public struct OutboxAttempt: Sendable, Equatable, Encodable {
    public var number: Int
    public var leaseOwner: String
    public var startedAt: Date
    public var finishedAt: Date?
    /// started (never finished: its deliverer died) | sent | retry | rejected | auth
    public var outcome: String
    /// The outcome of an attempt that has begun and not yet ended.
    static let started = "started"
    public var httpStatus: Int?
    public var code: String?
    public var detail: String?

    init(row: Row) {
        number = row["number"]
        leaseOwner = row["leaseOwner"]
        startedAt = Date(timeIntervalSince1970: row["startedAt"])
        finishedAt = (row["finishedAt"] as Double?).map(Date.init(timeIntervalSince1970:))
        outcome = row["outcome"]
        httpStatus = row["httpStatus"]
        code = row["code"]
        detail = row["detail"]
    }
}
