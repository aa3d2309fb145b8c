import Foundation
import NIOCore

/// One address a name resolved to.
public struct ResolvedAddress: Sendable, Equatable {
    public init(family: Int, ip: String, port: Int) {
        self.family = family
        self.ip = ip
        self.port = port
    }

    /// 4 or 6.
    public var family: Int
    /// The numeric form: `127.0.0.1`, `::1`.
    public var ip: String
    public var port: Int

    public var socketAddress: SocketAddress? { try? SocketAddress(ipAddress: ip, port: port) }
}
