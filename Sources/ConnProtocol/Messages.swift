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
///
/// A status code proves nothing (a captive portal answers 200 to everything): a client counts a
/// message as delivered only when the answer is this object and `isAcceptance(of:idempotencyKey:)`.
public struct MessageAccepted: Codable, Sendable, Equatable {
    public var uid: String
    public var dateTime: String
    public var message: Email
    /// The request's Idempotency-Key, lower-cased. Optional on the wire (older servers omit it);
    /// when present it must be the client's key.
    public var idempotencyKey: String?

    public init(uid: String, dateTime: String, message: Email, idempotencyKey: String? = nil) {
        self.uid = uid
        self.dateTime = dateTime
        self.message = message
        self.idempotencyKey = idempotencyKey
    }

    /// The longest uid a client accepts: a uid is an identifier, not a document.
    public static let maximumUidLength = 256

    /// Whether this answer accepts exactly `submission`, sent with `idempotencyKey`: a usable uid,
    /// the stored message echoing what was sent, and the key (when the server names it) ours.
    public func isAcceptance(of submission: MessageSubmission, idempotencyKey key: String) -> Bool {
        guard !uid.isEmpty, uid.utf8.count <= Self.maximumUidLength, message.uid == uid else { return false }
        if let idempotencyKey, idempotencyKey.lowercased() != key.lowercased() { return false }
        return message.to == submission.to && message.subject == submission.subject && message.text == submission.text
            && message.responseToUid == (submission.responseToUid ?? "")
    }
}

/// The body of `GET /time`: when the server received the request (`t2`) and sent the answer
/// (`t3`), in milliseconds since the Unix epoch, on the server's clock. Fractional: conn-server
/// gives microseconds (three decimals); an older server's integer milliseconds read the same.
public struct TimeSample: Codable, Sendable, Equatable {
    public var t2: Double
    public var t3: Double

    public init(t2: Double, t3: Double) {
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

/// Timestamps on the wire are milliseconds since the Unix epoch. One outside any plausible range
/// (before 1970, after the year 9999) is refused before it takes part in arithmetic: a hostile
/// server's `-9223372036854775808` would otherwise overflow a subtraction and crash the client.
public enum WireTime {
    /// 9999-12-31T23:59:59.999Z.
    public static let latestMS: Int64 = 253_402_300_799_999

    public static func isPlausible(_ milliseconds: Int64) -> Bool { (0...latestMS).contains(milliseconds) }

    /// The same for a fractional time: finite, and within the same range.
    public static func isPlausible(_ milliseconds: Double) -> Bool {
        milliseconds.isFinite && milliseconds >= 0 && milliseconds <= Double(latestMS)
    }

    /// The resolution of a server's times, in ms: 1 when every one is a whole millisecond (an
    /// older server, or the WebSocket of one), else a microsecond. Whole milliseconds by chance
    /// in every time of a measurement only make the bound wider, never wrong.
    public static func resolutionMS<Times: Sequence>(of times: Times) -> Double where Times.Element == Double {
        times.allSatisfy { $0 == $0.rounded(.down) } ? 1 : 0.001
    }
}
