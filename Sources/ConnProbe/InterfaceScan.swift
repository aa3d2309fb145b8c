import ConnCore
import Foundation

/// Why a device with no route out is offline, read from its interfaces (getifaddrs): none up
/// besides loopback → noInterface; up but none running (no carrier, cable out, Wi-Fi not
/// associated) → noCarrier; running but without a usable address → noAddress; else noRoute.
enum InterfaceScan {
    struct Interface: Equatable {
        var name: String
        var up: Bool
        var running: Bool
        var loopback: Bool
        /// Non-link-local IPv4 or IPv6 addresses.
        var usableAddresses: Int
    }

    static func offlineReason(_ interfaces: [Interface] = current()) -> OfflineReason {
        let candidates = interfaces.filter { !$0.loopback }
        if !candidates.contains(where: \.up) { return .noInterface }
        if !candidates.contains(where: { $0.up && $0.running }) { return .noCarrier }
        if !candidates.contains(where: { $0.up && $0.running && $0.usableAddresses > 0 }) { return .noAddress }
        return .noRoute
    }

    static func current() -> [Interface] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var byName: [String: Interface] = [:]
        var cursor = list
        while let entry = cursor?.pointee {
            let name = String(cString: entry.ifa_name)
            let flags = Int32(bitPattern: entry.ifa_flags)
            var interface = byName[name] ?? Interface(
                name: name, up: flags & Int32(IFF_UP) != 0, running: flags & Int32(IFF_RUNNING) != 0,
                loopback: flags & Int32(IFF_LOOPBACK) != 0, usableAddresses: 0)
            if let address = entry.ifa_addr {
                let family = Int32(address.pointee.sa_family)
                if family == AF_INET || family == AF_INET6 {
                    let length = socklen_t(family == AF_INET6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
                    if let text = NameResolver.numericHost(address, length: length), !text.lowercased().hasPrefix("fe80"), !text.hasPrefix("169.254.") {
                        interface.usableAddresses += 1
                    }
                }
            }
            byName[name] = interface
            cursor = entry.ifa_next
        }
        return byName.values.sorted { $0.name < $1.name }
    }
}
