import ConnCore
import ConnProbe
import ConnWatch
import Foundation
import Synchronization

/// The REPL's view of the connection: the shared ConnectivityMonitor's events folded into a
/// ReplStatus. Reports every change of the status; the latest status (with when it was
/// last checked, changed or not) can be read at any time.
final class ReplStatusTracker: Sendable {
    /// The status as of the latest event. A class so the event handler can hold it before
    /// `self` exists.
    private final class Latest: Sendable {
        let status: Mutex<ReplStatus>
        init(_ status: ReplStatus) { self.status = Mutex(status) }

        /// Takes in one of the monitor's events; the new status if it changed.
        func fold(_ event: ConnectivityMonitor.Event) -> ReplStatus? {
            status.withLock { status -> ReplStatus? in
                let previous = status
                status = Self.applying(event, to: previous)
                return status.differs(from: previous) ? status : nil
            }
        }

        /// (A function outside the lock's closure: swiftc 6.3.1 -O crashed in CopyPropagation
        /// when the switch over the event was written inside it.)
        private static func applying(_ event: ConnectivityMonitor.Event, to status: ReplStatus) -> ReplStatus {
            var next = status
            switch event {
            case .looked(_, let reported):
                next.checkedAt = Date()
                next.network = reported
            case .link(let state):
                next.link = state
            case .linkEnabled(let enabled):
                next.linkEnabled = enabled
                if !enabled { next.link = nil }
            }
            return next
        }
    }

    private let monitor: ConnectivityMonitor
    private let latest: Latest

    /// The status as of the latest look: `checkedAt` moves on with every look, even when
    /// nothing changed (`onChange` hears only changes). Its state is nil before the first look.
    var current: ReplStatus { latest.status.withLock { $0 } }

    /// - Parameters:
    ///   - link: the link to hold while enabled (nil: no server, no link).
    ///   - onChange: called with each new status, from the monitor's task.
    init(check: ConnectivityCheck, interval: Duration, link: BackEndLink?, linkEnabled: Bool, onChange: @escaping @Sendable (ReplStatus) -> Void) {
        let latest = Latest(ReplStatus(linkEnabled: link != nil && linkEnabled, linkAvailable: link != nil))
        self.latest = latest
        monitor = ConnectivityMonitor(check: check, engine: WatchEngine(interval: interval, grace: .zero), link: link, linkEnabled: linkEnabled) { event in
            if let changed = latest.fold(event) { onChange(changed) }
        }
    }

    /// Looks at once (a manual refresh); returns the status after the look.
    func refresh() async -> ReplStatus {
        await monitor.refresh()
        return current
    }

    /// Seed 002's isConnectionEnabled.
    func setLinkEnabled(_ enabled: Bool) {
        monitor.setLinkEnabled(enabled)
    }

    func stop() {
        monitor.stop()
    }
}

extension ReplStatus {
    /// A change the REPL reports: the state, the link, or whether the link is enabled.
    fileprivate func differs(from other: ReplStatus) -> Bool {
        state != other.state || link != other.link || linkEnabled != other.linkEnabled
    }
}
