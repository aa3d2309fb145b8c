import ConnCore
import Foundation

/// Which interface and source address the kernel would use to reach an address: a UDP socket
/// `connect()`ed to it (no packet is sent) reports the route's source address, and getifaddrs
/// names the interface that holds it (RouteCache remembers both for a run). No route gives ENETUNREACH at
/// once.
enum RouteInspector {
    struct Route: Equatable {
        var sourceIP: String
    }

    enum Failure: Error, Equatable {
        case noRoute
        case other(String)
    }

    static func route(to address: ResolvedAddress, egress: Egress = .any) -> Result<Route, Failure> {
        let family = address.family == 6 ? AF_INET6 : AF_INET
        let descriptor = socket(family, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { return .failure(.other(String(cString: strerror(errno)))) }
        defer { close(descriptor) }
        let bound = egress.apply(toDescriptor: descriptor, family: family)
        if bound != 0 { return .failure(.other("cannot bind to \(egress.description): \(String(cString: strerror(bound)))")) }
        guard let storage = address.socketAddress else { return .failure(.other("bad address \(address.ip)")) }
        let connected = storage.withSockAddr { pointer, length in connect(descriptor, pointer, socklen_t(length)) }
        if connected != 0 {
            let code = errno
            return code == ENETUNREACH || code == EHOSTUNREACH ? .failure(.noRoute) : .failure(.other(String(cString: strerror(code))))
        }
        var local = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { return .failure(.other(String(cString: strerror(errno)))) }
        let sourceIP = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { NameResolver.numericHost($0, length: length) }
        } ?? "?"
        return .success(Route(sourceIP: sourceIP))
    }

    /// The interface that has `ip` as one of its addresses, and whether it is running (up with
    /// a carrier: IFF_RUNNING follows the kernel's operstate).
    static func interface(holding ip: String) -> (name: String, running: Bool)? {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return nil }
        defer { freeifaddrs(list) }
        var cursor = list
        while let entry = cursor?.pointee {
            if let address = entry.ifa_addr {
                let family = Int32(address.pointee.sa_family)
                let length = socklen_t(family == AF_INET6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
                if family == AF_INET || family == AF_INET6, let text = NameResolver.numericHost(address, length: length),
                    text.split(separator: "%").first.map(String.init) == ip.split(separator: "%").first.map(String.init)
                {
                    return (String(cString: entry.ifa_name), Int32(bitPattern: entry.ifa_flags) & Int32(IFF_RUNNING) != 0)
                }
            }
            cursor = entry.ifa_next
        }
        return nil
    }
}
