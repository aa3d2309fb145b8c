/// What the metrics listener allows a client, as conn-server does: a connection holds a place
/// only while it sends a request in good time or has one answered.
public struct ListenerLimits: Sendable {
    /// From the connection's accepting to its first whole request (the TLS handshake included).
    public var firstRequest: Duration
    /// From the end of an answer to the next whole request on the same connection (keep-alive).
    public var idle: Duration
    /// Connections kept at once; at the limit a new one takes the place of the one that has
    /// waited longest without a request in hand.
    public var connections: Int

    public init(firstRequest: Duration = .seconds(10), idle: Duration = .seconds(60), connections: Int = 256) {
        self.firstRequest = firstRequest
        self.idle = idle
        self.connections = connections
    }

    public static let standard = ListenerLimits()
}
