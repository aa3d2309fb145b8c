import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// systemd's notify protocol, spoken directly (no libsystemd): one datagram of `KEY=VALUE`
/// lines to the socket in `$NOTIFY_SOCKET` — a path, or an abstract name written `@name`.
/// Without the variable (not started by systemd with Type=notify) it says nothing.
struct SystemdNotifier: Sendable {
    let socketName: String?

    init(environment: [String: String]) {
        socketName = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Sends `READY=1`, `STOPPING=1`, `STATUS=…` (several lines in one datagram if needed).
    func notify(_ lines: String...) {
        guard let socketName, socketName.hasPrefix("/") || socketName.hasPrefix("@") else { return }
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var name = Array(socketName.utf8)
        if name.first == UInt8(ascii: "@") { name[0] = 0 }  // an abstract socket: a leading NUL
        var address = sockaddr_un()
        guard name.count < MemoryLayout.size(ofValue: address.sun_path) else { return }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (index, byte) in name.enumerated() { bytes[index] = byte }
        }
        // An abstract name's length is exact (no trailing NUL); a path's includes its NUL.
        let length = MemoryLayout<sa_family_t>.size + name.count + (name.first == 0 ? 0 : 1)
        let message = lines.joined(separator: "\n")
        _ = message.withCString { text in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(descriptor, text, message.utf8.count, Int32(MSG_NOSIGNAL), $0, socklen_t(length))
                }
            }
        }
    }
}
