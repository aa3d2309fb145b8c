import Foundation

/// A TCP socket listening on 127.0.0.1 on a free port that never accepts: connections complete
/// in the kernel's backlog and then hear nothing — a server that hangs.
public final class LoopbackListener: @unchecked Sendable {
    private let bound: ReservedPort
    public var port: Int { bound.port }

    public init() throws {
        bound = try ReservedPort()
        try bound.listen(backlog: 16)
    }

    public func close() { bound.release() }

    /// Waits (up to `seconds`) until something accepts TCP connections on 127.0.0.1:port.
    public static func waitUntilAccepting(port: Int, seconds: Double = 20) async throws -> Bool {
        await poll(for: seconds, every: .milliseconds(50)) { canConnect(port: port) ? true : nil } ?? false
    }

    /// Whether something accepts TCP connections on 127.0.0.1:port.
    public static func canConnect(port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { _ = Foundation.close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }
}
