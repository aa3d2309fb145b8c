import ConnProtocol
import Foundation
import Synchronization

/// Who may sign in (`--account EMAIL:PASSWORD`) and the sessions they hold: random 256-bit
/// tokens, valid until they expire or are signed out. In memory: a restart signs everyone out.
public final class SessionStore: Sendable {
    struct Session {
        var email: String
        var expiresAt: Date
    }

    /// The most sessions kept; the oldest-expiring goes first, so memory stays bounded.
    static let capacity = 10_000

    private let accounts: [String: String]
    private let lifetime: Duration
    private let sessions = Mutex<[String: Session]>([:])

    public init(accounts: [String: String], lifetime: Duration) {
        // E-mail addresses compare without regard to case.
        self.accounts = Dictionary(accounts.map { ($0.key.lowercased(), $0.value) }) { first, _ in first }
        self.lifetime = lifetime
    }

    /// Whether anyone can sign in here.
    public var hasAccounts: Bool { !accounts.isEmpty }

    /// A new session for `email` if `password` is its password; nil otherwise.
    func signIn(email: String, password: String, now: Date = Date()) -> SessionGrant? {
        let key = email.lowercased()
        guard let expected = accounts[key], Authenticator.constantTimeEqual(Array(password.utf8), Array(expected.utf8))
        else { return nil }
        var bytes = [UInt8](repeating: 0, count: 32)
        var generator = SystemRandomNumberGenerator()
        for index in bytes.indices { bytes[index] = generator.next() }
        let token = bytes.map { String(format: "%02x", $0) }.joined()
        let expiresAt = now.addingTimeInterval(lifetime.seconds)
        sessions.withLock { sessions in
            sessions = sessions.filter { $0.value.expiresAt > now }
            if sessions.count >= Self.capacity, let oldest = sessions.min(by: { $0.value.expiresAt < $1.value.expiresAt })?.key {
                sessions[oldest] = nil
            }
            sessions[token] = Session(email: key, expiresAt: expiresAt)
        }
        return SessionGrant(token: token, expiresAt: Self.timestamp(expiresAt), email: key)
    }

    /// Ends the session of `token`, if there is one.
    func signOut(token: String) {
        _ = sessions.withLock { $0.removeValue(forKey: token) }
    }

    /// Whether `token` is a live session's.
    func isValid(token: String, now: Date = Date()) -> Bool {
        sessions.withLock { $0[token].map { $0.expiresAt > now } ?? false }
    }

    static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt))
    }
}

extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
