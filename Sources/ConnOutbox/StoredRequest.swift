import ConnCore
import Foundation

/// An HTTP request in the outbox (`conn request`), exactly as it is sent on every attempt: its
/// method, URL, headers and body bytes, what proves its delivery, and the header that carries its
/// idempotency key. Stored in the same row as a message would be, beside the request's answer.
public struct StoredRequest: Sendable, Equatable {
    /// One header as the user gave it; `secret` ones are never printed.
    public struct Header: Sendable, Equatable, Codable {
        public var name: String
        public var value: String
        public var secret: Bool

        public init(name: String, value: String, secret: Bool) {
            self.name = name
            self.value = value
            self.secret = secret
        }
    }

    public var method: String
    public var url: String
    public var headers: [Header]
    public var body: Data?
    /// The statuses that prove delivery; nil: any 2xx.
    public var expect: [Int]?
    /// The header that carries the idempotency key (`Idempotency-Key`); nil: none is sent, so a
    /// retry after a lost answer may reach the server twice.
    public var keyHeader: String?

    public init(method: String, url: String, headers: [Header], body: Data?, expect: [Int]?, keyHeader: String?) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.expect = expect
        self.keyHeader = keyHeader
    }

    /// Headers whose values are credentials, whatever the user says: never printed.
    public static let secretHeaderNames: Set<String> = ["authorization", "cookie", "proxy-authorization", "x-api-key"]

    /// The most a body may hold (as `conn send`'s standard input): stated in `--help`.
    public static let maxBodyBytes = 10 << 20

    /// Whether the user set this header themselves (then conn adds none of that name).
    public func has(_ name: String) -> Bool {
        headers.contains { $0.name.caseInsensitiveCompare(name) == .orderedSame }
    }

    /// What an attempt sends: the user's headers, then the key.
    public func headerFields(key: String) -> [(String, String)] {
        var fields = headers.map { ($0.name, $0.value) }
        if let keyHeader { fields.append((keyHeader, key)) }
        return fields
    }

    /// The headers as they may be shown: secret values replaced.
    public var shownHeaders: [String] {
        headers.map { "\($0.name): \($0.secret ? "(secret, not shown)" : $0.value)" }
    }

}
