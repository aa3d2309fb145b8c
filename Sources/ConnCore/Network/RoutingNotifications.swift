import Glibc

/// A netlink socket that the kernel tells of every change to links (carrier included), addresses,
/// routes and routing rules. `NetlinkMonitor` (watch, the agent, the REPL) waits on one;
/// `RoutingChanges` (`probe --count`) asks one between rounds.
public enum RoutingNotifications {
    // From linux/rtnetlink.h; Glibc does not export the netlink headers to Swift.
    static let groups: UInt32 = 0x1 | 0x10 | 0x40 | 0x80 | 0x100 | 0x400  // LINK, IPV4_IFADDR, IPV4_ROUTE, IPV4_RULE, IPV6_IFADDR, IPV6_ROUTE
    static let ipv6RuleGroup: Int32 = 19  // RTNLGRP_IPV6_RULE: past the 32 bits of the bind mask
    static let netlinkAddMembership: Int32 = 1  // NETLINK_ADD_MEMBERSHIP
    static let solNetlink: Int32 = 270  // SOL_NETLINK

    /// Opens and binds the socket (close-on-exec, a 1 MB receive buffer); nil where netlink is
    /// not available.
    public static func openSocket() -> Int32? {
        let fd = socket(16 /* AF_NETLINK */, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0 /* NETLINK_ROUTE */)
        guard fd >= 0 else { return nil }
        // struct sockaddr_nl { u16 family; u16 pad; u32 pid; u32 groups; }
        var address = [UInt8](repeating: 0, count: 12)
        address[0] = 16
        withUnsafeBytes(of: groups.littleEndian) { address.replaceSubrange(8..<12, with: $0) }
        let bound = address.withUnsafeBytes { bytes in
            bind(fd, bytes.baseAddress!.assumingMemoryBound(to: sockaddr.self), 12)
        }
        guard bound == 0 else {
            close(fd)
            return nil
        }
        var group = ipv6RuleGroup
        _ = setsockopt(fd, solNetlink, netlinkAddMembership, &group, socklen_t(MemoryLayout<Int32>.size))  // best effort
        var size: Int32 = 1 << 20
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        return fd
    }
}
