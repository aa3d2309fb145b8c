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
        LocalInterface.current().map {
            Interface(name: $0.name, up: $0.up, running: $0.running, loopback: $0.loopback, usableAddresses: $0.usableAddresses.count)
        }.sorted { $0.name < $1.name }
    }
}
