import ConnCore
import Crypto
import Foundation

/// The server a message is for: its origin (scheme, host, port, as `Origin` writes it, so URLs
/// that differ only in the case of the host or a default port are one) and the messages URL it
/// was queued for. A message is delivered to its own origin only: one queued for staging is
/// never posted to production because the configuration changed meanwhile.
public struct OutboxTarget: Sendable, Equatable {
    /// `https://api.example.com:443`.
    public var origin: String
    public var messagesURL: String

    /// The target of `url` (a checked configuration's, so an http(s) or ws(s) URL with a host;
    /// anything else would be its own origin, written as it is).
    public init(messagesURL url: URL) {
        origin = Origin(url)?.description ?? url.absoluteString
        messagesURL = url.absoluteString
    }

    /// The configured server's messages resource.
    public init(_ backEnd: BackEndEndpoint) {
        self.init(messagesURL: backEnd.url(for: .messages))
    }

    /// No server is configured: a deliverer takes requests only (each is bound to its own URL),
    /// never a message.
    public static let requestsOnly = OutboxTarget(origin: "conn:requests-only", messagesURL: "")

    private init(origin: String, messagesURL: String) {
        self.origin = origin
        self.messagesURL = messagesURL
    }

    /// The configured server's target, or `requestsOnly` without one.
    public init(_ backEnd: BackEndEndpoint?) {
        self = backEnd.map { OutboxTarget($0) } ?? .requestsOnly
    }

    /// The Idempotency-Key of message `id` at `origin`: the id itself at the origin it was queued
    /// for, and for another one (after `outbox retarget`) a key derived from both, the same
    /// every time, so each server sees one key per message however often it is moved.
    public static func idempotencyKey(id: String, origin: String?, queuedOrigin: String?) -> String {
        guard let origin, let queuedOrigin, origin != queuedOrigin else { return id }
        let digest = Array(SHA256.hash(data: Data("\(id) \(origin)".utf8)))
        var bytes = Array(digest.prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x50  // version 5 layout (name-based)
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 4122 variant
        let uuid = UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                               bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        return uuid.uuidString.lowercased()
    }
}
