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

    static let columns = """
        id, toAddress, subject, text, responseToUid, createdAt, state, failureReason, lastErrorCode, lastError, \
        attempts, nextAttemptAt, notBefore, leaseOwner, leaseExpiresAt, sentAt, serverUid, serverDateTime, \
        origin, messagesURL, profile, queuedOrigin
        """

    init(row: Row) {
        id = row["id"]
        to = row["toAddress"]
        subject = row["subject"]
        text = row["text"]
        responseToUid = row["responseToUid"]
        createdAt = Date(timeIntervalSince1970: row["createdAt"])
        state = State(rawValue: row["state"]) ?? .pending
        failureReason = (row["failureReason"] as String?).flatMap(FailureReason.init(rawValue:))
        lastErrorCode = row["lastErrorCode"]
        lastError = row["lastError"]
        attempts = row["attempts"]
        nextAttemptAt = Date(timeIntervalSince1970: row["nextAttemptAt"])
        notBefore = (row["notBefore"] as Double?).map(Date.init(timeIntervalSince1970:))
        leaseOwner = row["leaseOwner"]
        leaseExpiresAt = (row["leaseExpiresAt"] as Double?).map(Date.init(timeIntervalSince1970:))
        sentAt = (row["sentAt"] as Double?).map(Date.init(timeIntervalSince1970:))
        serverUid = row["serverUid"]
        serverDateTime = row["serverDateTime"]
        origin = row["origin"]
        messagesURL = row["messagesURL"]
        profile = row["profile"]
        queuedOrigin = row["queuedOrigin"]
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
