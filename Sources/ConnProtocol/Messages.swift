/// The body of `POST /messages`. The sender is the authenticated user, not a field.
public struct MessageSubmission: Codable, Sendable, Equatable {
    public var to: String
    public var subject: String
    public var text: String
    /// The uid of the message this one answers; empty or absent to start a conversation.
    public var responseToUid: String?

    public init(to: String, subject: String, text: String, responseToUid: String? = nil) {
        self.to = to
        self.subject = subject
        self.text = text
        self.responseToUid = responseToUid
    }
}

/// The answer to an accepted `POST /messages` (201, replayed as-is for a repeated key).
public struct MessageAccepted: Codable, Sendable, Equatable {
    public var uid: String
    public var dateTime: String
    public var message: Email

    public init(uid: String, dateTime: String, message: Email) {
        self.uid = uid
        self.dateTime = dateTime
        self.message = message
    }
}

/// The body of `GET /time`: when the server received the request (`t2`) and sent the answer
/// (`t3`), in milliseconds since the Unix epoch, on the server's clock.
public struct TimeSample: Codable, Sendable, Equatable {
    public var t2: Int64
    public var t3: Int64

    public init(t2: Int64, t3: Int64) {
        self.t2 = t2
        self.t3 = t3
    }
}

/// The body of every error answer: `{"error":{"code":"…","message":"…"}}`.
public struct APIErrorBody: Codable, Sendable, Equatable {
    public struct Detail: Codable, Sendable, Equatable {
        public var code: String
        public var message: String
    }
    public var error: Detail

    public init(code: String, message: String) {
        self.error = Detail(code: code, message: message)
    }
}

/// Protocol constants shared by server and client.
public enum ConnProtocol {
    /// The header that makes `POST /messages` safe to retry.
    public static let idempotencyKeyHeader = "Idempotency-Key"
    /// Set on an answer that replays the first answer for a repeated key.
    public static let replayedHeader = "Idempotent-Replayed"
    /// `GET /time` repeats t2 and t3 in this header (`t2=…, t3=…`) for clients that read only headers.
    public static let timeHeader = "Conn-Server-Time"
}
