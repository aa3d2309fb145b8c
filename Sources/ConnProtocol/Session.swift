import Foundation

/// `POST /session`'s body: sign in with an e-mail address and a password (seed 003's sign-in).
public struct SessionRequest: Codable, Sendable, Equatable {
    public var email: String
    public var password: String

    public init(email: String, password: String) {
        self.email = email
        self.password = password
    }
}

/// `POST /session`'s answer (201): a bearer token for the other resources, until `expiresAt`
/// (ISO 8601, UTC). `DELETE /session` with that token ends it early.
public struct SessionGrant: Codable, Sendable, Equatable {
    public var token: String
    public var expiresAt: String
    public var email: String

    public init(token: String, expiresAt: String, email: String) {
        self.token = token
        self.expiresAt = expiresAt
        self.email = email
    }

    /// A token conn accepts: 16 to 4,096 characters of printable ASCII without blanks (it goes
    /// into an Authorization header and a file).
    public static func isAcceptableToken(_ token: String) -> Bool {
        (16...4096).contains(token.utf8.count) && token.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }
}
