import Foundation

/// The queue stops after the server refuses the credentials (401/403): every other message would
/// be refused too. The pause belongs to the token that was refused — configuring another token
/// lifts it — or ends with `conn outbox resend`.
public struct AuthPause: Sendable, Equatable, Encodable {
    public var since: Date
    public var message: String
    /// A fingerprint (not the token) of the token that was refused.
    var tokenFingerprint: String

    static let metaKey = "outbox.authPause"

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

    /// FNV-1a of the token: enough to tell that the token changed, useless for recovering it.
    static func fingerprint(of token: String?) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in (token ?? "").utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
