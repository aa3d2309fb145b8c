import Foundation
import Synchronization

/// Ports for tests.
public enum HTTPPorts {
    /// A loopback TCP port where nothing listens, for the rest of the test run: a socket holds it
    /// bound but not listening (so a connection is refused) and without SO_REUSEADDR (so no other
    /// server can bind it). A port that was only free for a moment was taken over by another
    /// test's server now and then, which answered where a test expected a refusal.
    public static func closed() throws -> Int {
        let reservation = try ReservedPort()
        held.withLock { $0.append(reservation) }
        return reservation.port
    }

    /// A port free right now, for a server a test starts on it at once (another server could
    /// still take it first; `reserved()` narrows that window when the start comes later).
    public static func free() throws -> Int {
        let reservation = try ReservedPort()
        reservation.release()
        return reservation.port
    }

    /// A free port below the kernel's automatic range (`ip_local_port_range`), for a server a
    /// test will kill and expects to find refused, or restart: no port-0 bind of another test's
    /// server can take such a port over once it is freed, as happened with automatic ones.
    public static func outsideAutomaticRange() throws -> Int {
        let range = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8))?
            .split(whereSeparator: \.isWhitespace).compactMap { Int($0) } ?? []
        let low = max(range.first ?? 32768, 11000)
        for _ in 0..<200 {
            let candidate = Int.random(in: 10000..<low)
            // Never the same port twice in one run: two tests given one port would each find the
            // other's server answering where they expect theirs, or nothing.
            guard handedOut.withLock({ $0.insert(candidate).inserted }) else { continue }
            if let reservation = try? ReservedPort(port: candidate) {
                reservation.release()
                return candidate
            }
        }
        throw POSIXError(.EADDRINUSE)
    }

    /// A port held closed until `release()`, for a test that starts a server on it later:
    /// release it just before.
    public static func reserved() throws -> ReservedPort { try ReservedPort() }

    private static let held = Mutex<[ReservedPort]>([])
    private static let handedOut = Mutex<Set<Int>>([])
}

/// A loopback TCP port bound and not listening: connections to it are refused, and nothing else
/// can bind it until `release()`.
public final class ReservedPort: @unchecked Sendable {
    public let port: Int
    private let descriptor = Mutex<Int32>(-1)

    /// A free port (`port` 0), or a given one.
    init(port requested: Int = 0) throws {
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socketDescriptor >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(requested).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            Foundation.close(socketDescriptor)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketDescriptor, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        descriptor.withLock { $0 = socketDescriptor }
    }

    /// Listens on the port without ever accepting (`LoopbackListener`): connections complete in
    /// the kernel's backlog and then hear nothing.
    func listen(backlog: Int32) throws {
        try descriptor.withLock {
            guard $0 >= 0, Glibc.listen($0, backlog) == 0 else { throw POSIXError(.EADDRINUSE) }
        }
    }

    /// Frees the port (for a server the test starts on it).
    public func release() {
        descriptor.withLock {
            if $0 >= 0 { Foundation.close($0) }
            $0 = -1
        }
    }

    deinit { release() }
}
