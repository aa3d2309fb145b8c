/// A token conn has but does not send: it was issued for (or written beside) another server than
/// the one in effect now. A request the server refuses for want of it says so (77).
public struct WithheldToken: Sendable, Equatable {
    /// The origin it belongs to: `https://api.example.com:443`.
    public let issuedFor: String
    /// The origin in effect, which does not get it.
    public let server: String
    /// Where the token came from (`~/.config/conn/config.yaml:3`, `conn login as ann@…`).
    public let source: String

    /// What to tell a person whose request was refused without it.
    public var explanation: String {
        "the token (from \(source)) was issued for \(issuedFor) and is not sent to \(server)"
    }

    public var hint: String {
        "Sign in to \(server) (conn login --server \(server)), give its token with CONN_TOKEN, or use the server the token is for."
    }
}
