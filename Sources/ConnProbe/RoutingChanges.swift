import ConnCore
import Glibc

/// Whether the kernel's routing state (links and their carrier, addresses, routes, rules) may
/// have changed since the last ask. `probe --count` keeps a round's routes and interfaces for the
/// next while nothing changed: looking them up again (a UDP socket, getifaddrs' two netlink
/// dumps) was a tenth of a round. The kernel queues its notification before the command that
/// made the change returns, so the next round after a change looks again. Where netlink cannot
/// be opened every ask says "changed", and a kept look-up is never older than `longestKept`.
final class RoutingChanges: @unchecked Sendable {
    private let descriptor: Int32?
    private var lastFresh: ContinuousClock.Instant?
    private var buffer = [UInt8](repeating: 0, count: 16 * 1024)

    /// The oldest look-up kept, a bound for whatever the notifications do not cover.
    static let longestKept: Duration = .seconds(1)

    init(descriptor: Int32? = RoutingNotifications.openSocket()) {
        self.descriptor = descriptor
    }

    deinit {
        if let descriptor { close(descriptor) }
    }

    /// True when look-ups must be made afresh: the first ask, a notification (or notifications
    /// lost: ENOBUFS) since the last ask, no netlink, or the kept ones are `longestKept` old.
    /// Reads every queued notification without waiting.
    func needFreshLookups(now: ContinuousClock.Instant = .now) -> Bool {
        var changed = descriptor == nil
        if let descriptor {
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if count > 0 { changed = true; continue }
                if count < 0 && errno == EINTR { continue }
                if count < 0 && errno != EAGAIN && errno != EWOULDBLOCK { changed = true }  // ENOBUFS: some were lost
                break
            }
        }
        if changed || lastFresh.map({ now - $0 >= Self.longestKept }) ?? true {
            lastFresh = now
            return true
        }
        return false
    }
}
