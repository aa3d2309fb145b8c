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
            let (next, changed) = latest.status.withLock { status -> (ReplStatus, Bool) in
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
                let changed = next.state != status.state || next.link != status.link || next.linkEnabled != status.linkEnabled
                status = next
                return (next, changed)
            }
            if changed { onChange(next) }
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
