import ConnCore
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

    /// CLOCK_MONOTONIC in microseconds: RELOADING=1's MONOTONIC_USEC, which lets systemd tell
    /// this reload from an earlier one (Type=notify-reload, systemd 253 and later).
    static func monotonicMicroseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
    }

    /// Sends `READY=1`, `STOPPING=1`, `STATUS=…` (several lines in one datagram if needed).
    func notify(_ lines: String...) {
        notify(lines)
    }

    func notify(_ lines: [String]) {
        guard let socketName, socketName.hasPrefix("/") || socketName.hasPrefix("@"),
            let address = UnixSocketAddress(socketName)
        else { return }
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let message = lines.joined(separator: "\n")
        _ = message.withCString { text in
            address.withSockaddr { sendto(descriptor, text, message.utf8.count, Int32(MSG_NOSIGNAL), $0, $1) }
        }
    }
}
