import ConnCore
import Foundation

/// What the server answered a request from the outbox, kept for scripts (`outbox show ID
/// --json`): the status, the headers a script needs next, and the body up to `keptBytes`.
public struct KeptAnswer: Sendable, Equatable {
    public var status: Int
    /// Location, ETag, Content-Type (those the server sent), by those names.
    public var headers: [String: String]
    public var body: Data
    /// The body's whole size: more than `body.count` when it was cut.
    public var bytes: Int

    public var truncated: Bool { bytes > body.count }

    /// The most of an answer's body kept.
    public static let keptBytes = 64 << 10
    /// The headers kept, as they are named in `headers`.
    public static let keptHeaders = ["Location", "ETag", "Content-Type"]

    public init(status: Int, headers: [String: String], body: Data, bytes: Int) {
        self.status = status
        self.headers = headers
        self.body = body
        self.bytes = bytes
    }

    /// The part of `response` that is kept.
    public init(_ response: HTTPExchangeResponse) {
        self.init(status: response.status, headers: response.headers(named: Self.keptHeaders), body: response.body.prefix(Self.keptBytes),
                  bytes: response.receivedBodyBytes ?? response.body.count)
    }
}
