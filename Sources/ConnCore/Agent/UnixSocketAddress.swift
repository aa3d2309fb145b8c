import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A Unix-domain socket address: a path, or an abstract name written `@name` (as systemd's
/// NOTIFY_SOCKET does). Nil when the name does not fit in `sun_path`.
public struct UnixSocketAddress {
    private var address = sockaddr_un()
    /// A path's length counts its NUL; an abstract name's is exact.
    private let length: socklen_t

    public init?(_ name: String) {
        var bytes = Array(name.utf8)
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }  // abstract: a leading NUL
        guard !bytes.isEmpty, bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            for (index, byte) in bytes.enumerated() { path[index] = byte }
        }
        length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (bytes[0] == 0 ? 0 : 1))
    }

    /// Calls `body` with the address as connect(2) and sendto(2) take it.
    public func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        withUnsafePointer(to: address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) } }
    }
}
