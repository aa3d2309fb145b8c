/// The messages of the `/ws` resource, as JSON text frames with a `type` field.
///
/// Timestamps are application-level (a protocol-level pong must echo its ping's payload, so it
/// cannot carry the server's times): the client sends `ping{t1}`, the server answers
/// `pong{t1,t2,t3}`, all in ms since the epoch, t2 and t3 on the server's clock (fractional:
/// microseconds from conn-server, whole milliseconds from older servers).
public enum WebSocketEvent: Codable, Sendable, Equatable {
    /// Sent by the server on connect.
    case hello(serverTime: Int64)
    case ping(t1: Int64)
    case pong(t1: Int64, t2: Double, t3: Double)
    /// Pushed by the server when a message arrives in the inbox.
    case newMail(Email)

    private enum CodingKeys: String, CodingKey { case type, serverTime, t1, t2, t3, email }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .type) {
        case "hello": self = .hello(serverTime: try container.decode(Int64.self, forKey: .serverTime))
        case "ping": self = .ping(t1: try container.decode(Int64.self, forKey: .t1))
        case "pong":
            self = .pong(
                t1: try container.decode(Int64.self, forKey: .t1), t2: try container.decode(Double.self, forKey: .t2),
                t3: try container.decode(Double.self, forKey: .t3))
        case "newMail": self = .newMail(try container.decode(Email.self, forKey: .email))
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .type, in: container, debugDescription: "unknown event type \"\(other)\"")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .hello(let serverTime):
            try container.encode("hello", forKey: .type)
            try container.encode(serverTime, forKey: .serverTime)
        case .ping(let t1):
            try container.encode("ping", forKey: .type)
            try container.encode(t1, forKey: .t1)
        case .pong(let t1, let t2, let t3):
            try container.encode("pong", forKey: .type)
            try container.encode(t1, forKey: .t1)
            try container.encode(t2, forKey: .t2)
            try container.encode(t3, forKey: .t3)
        case .newMail(let email):
            try container.encode("newMail", forKey: .type)
            try container.encode(email, forKey: .email)
        }
    }
}
