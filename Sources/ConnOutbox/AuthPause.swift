import ConnCore
import Crypto
import Foundation
import GRDB

/// The queue stops after the server refuses the credentials (401/403): every other message would
/// be refused too. The pause belongs to the token that was refused — configuring another token
/// lifts it — or ends with `conn outbox resend`.
public struct AuthPause: Sendable, Equatable, Encodable {
    public var since: Date
    public var message: String
    /// A fingerprint (not the token) of the token that was refused.
    var tokenFingerprint: String

    static let metaKey = "outbox.authPause"
    /// The random key of the fingerprints, one per database.
    static let fingerprintKeyMetaKey = "outbox.authPauseKey"

    var stored: String { "\(tokenFingerprint)|\(since.timeIntervalSince1970)|\(message)" }

    init(since: Date, message: String, tokenFingerprint: String) {
        self.since = since
        self.message = message
        self.tokenFingerprint = tokenFingerprint
    }

    init?(stored: String) {
        let parts = stored.split(separator: "|", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let seconds = Double(parts[1]) else { return nil }
        self.init(since: Date(timeIntervalSince1970: seconds), message: String(parts[2]), tokenFingerprint: String(parts[0]))
    }

    enum CodingKeys: String, CodingKey { case since, message }

    /// Whether a proxy's 407 paused the queue (its credentials, not the server's token, are to
    /// fix): its message is conn's own, "the proxy … wants credentials …", where a server's
    /// refusal starts with its status ("401: …"), so no server can pass for the proxy.
    public var byProxy: Bool { message.hasPrefix("the proxy ") && message.contains("wants credentials") }

    /// What to do about a pause (or a message refused so), naming what to fix.
    public static func hint(byProxy: Bool, then next: String) -> String {
        byProxy ? "Fix the proxy's user and password (--proxy, `proxy:` or the proxy variable: http://USER:PASSWORD@HOST:PORT), then \(next)."
            : "Fix the token (CONN_TOKEN or `token:` in the config file), then \(next)."
    }

    /// HMAC-SHA256 of the token under a random 256-bit key kept in this database: enough to tell
    /// that the token changed, and useless for guessing the token offline from a copy of the
    /// database without the key (a bare fast hash of a weak token could be brute-forced). The
    /// database holds the key too, so this protects a leaked value, not a leaked database: the
    /// database file is private (0600) for that.
    static func fingerprint(of token: String?, key: SymmetricKey) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Data((token ?? "").utf8), using: key)
        return "hmac-sha256:" + code.map { String(format: "%02x", $0) }.joined()
    }

    /// The database's fingerprint key (32 bytes, base64 in `meta`); created, in the caller's write
    /// transaction, when `create`.
    static func fingerprintKey(_ db: Database, create: Bool) throws -> SymmetricKey? {
        if let text = try LocalDatabase.metaValue(db, fingerprintKeyMetaKey), let bytes = Data(base64Encoded: text), bytes.count == 32 {
            return SymmetricKey(data: bytes)
        }
        guard create else { return nil }
        let key = SymmetricKey(size: .bits256)
        try LocalDatabase.setMetaValue(db, fingerprintKeyMetaKey, key.withUnsafeBytes { Data($0).base64EncodedString() })
        return key
    }
}
