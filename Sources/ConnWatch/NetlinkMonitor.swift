import Foundation

/// Kernel notifications of link, address and route changes (rtnetlink), as a stream of
/// "something changed" signals: the monitor re-probes on each, so it needs no parsing beyond
/// the message type. Runs on its own thread, blocked in recv(2), costing nothing while idle.
public final class NetlinkMonitor: @unchecked Sendable {
    public enum Event: Sendable {
        /// A link, address or route was added, changed or removed.
        case changed(kind: String)
        /// The kernel dropped notifications (ENOBUFS): the state must be read again in full.
        case overrun
    }

    private let descriptor: Int32

    // From linux/rtnetlink.h; Glibc does not export the netlink headers to Swift.
    private static let groups: UInt32 = 0x1 | 0x10 | 0x40 | 0x100 | 0x400  // LINK, IPV4_IFADDR, IPV4_ROUTE, IPV6_IFADDR, IPV6_ROUTE

    /// Opens and binds the socket; nil where netlink is not available (the caller polls then).
    public init?() {
        let fd = socket(16 /* AF_NETLINK */, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0 /* NETLINK_ROUTE */)
        guard fd >= 0 else { return nil }
        // struct sockaddr_nl { u16 family; u16 pad; u32 pid; u32 groups; }
        var address = [UInt8](repeating: 0, count: 12)
        address[0] = 16
        withUnsafeBytes(of: Self.groups.littleEndian) { address.replaceSubrange(8..<12, with: $0) }
        let bound = address.withUnsafeBytes { bytes in
            bind(fd, bytes.baseAddress!.assumingMemoryBound(to: sockaddr.self), 12)
        }
        guard bound == 0 else {
            close(fd)
            return nil
        }
        var size: Int32 = 1 << 20
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        descriptor = fd
    }

    /// The events, until the stream's consumer goes away.
    public func events() -> AsyncStream<Event> {
        let fd = descriptor
        return AsyncStream { continuation in
            let thread = Thread {
                var buffer = [UInt8](repeating: 0, count: 64 * 1024)
                while true {
                    let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                    if count < 0 {
                        if errno == EINTR { continue }
                        if errno == ENOBUFS {
                            continuation.yield(.overrun)
                            continue
                        }
                        continuation.finish()
                        return
                    }
                    var offset = 0
                    while offset + 16 <= count {
                        let length = Int(buffer[offset]) | Int(buffer[offset + 1]) << 8 | Int(buffer[offset + 2]) << 16 | Int(buffer[offset + 3]) << 24
                        let type = Int(buffer[offset + 4]) | Int(buffer[offset + 5]) << 8
                        if let kind = Self.kind(of: type) { continuation.yield(.changed(kind: kind)) }
                        guard length >= 16 else { break }
                        offset += (length + 3) & ~3
                    }
                }
            }
            thread.name = "conn-netlink"
            thread.start()
        }
    }

    static func kind(of type: Int) -> String? {
        switch type {
        case 16, 17: "link"  // RTM_NEWLINK, RTM_DELLINK
        case 20, 21: "address"  // RTM_NEWADDR, RTM_DELADDR
        case 24, 25: "route"  // RTM_NEWROUTE, RTM_DELROUTE
        default: nil
        }
    }
}
