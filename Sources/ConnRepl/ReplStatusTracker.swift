import ConnCore
import ConnLive
import ConnProbe
import Foundation
import Logging
import Synchronization

/// The REPL's view of the connection: the live session's events folded into a ReplStatus.
/// Reports every change of the status; the latest status (with when it was last checked,
/// changed or not) can be read at any time.
final class ReplStatusTracker: Sendable {
    /// The status as of the latest event. A class so the event handler can hold it before
    /// `self` exists.
    private final class Latest: Sendable {
        let status: Mutex<ReplStatus>
        init(_ status: ReplStatus) { self.status = Mutex(status) }

        /// Takes in one of the session's events; the new status if it changed.
        func fold(_ event: LiveSession.Event) -> ReplStatus? {
            status.withLock { status -> ReplStatus? in
                let previous = status
                status = Self.applying(event, to: previous)
                return status.differs(from: previous) ? status : nil
            }
        }

        /// (A function outside the lock's closure: swiftc 6.3.1 -O crashed in CopyPropagation
        /// when the switch over the event was written inside it.)
        private static func applying(_ event: LiveSession.Event, to status: ReplStatus) -> ReplStatus {
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
            case .path(_, let reported):
                next.network = reported
            case .outbox, .synced, .chrony, .resourcesSynced:
                break
            }
            return next
        }
    }

    private let session: LiveSession
    private let latest: Latest

    /// The status as of the latest look: `checkedAt` moves on with every look, even when
    /// nothing changed (`onChange` hears only changes). Its state is nil before the first look.
    /// The status now, with the link's latest clock estimate (for `status` to say its offset as
    /// clock-offset and watch do).
    var current: ReplStatus {
        var status = latest.status.withLock { $0 }
        status.linkClock = session.linkClock
        return status
    }

    /// Whether the session delivers the outbox (no agent does it for this database).
    var delivers: Bool { session.delivers }

    /// - Parameters:
    ///   - parts: what the live session watches (its link: nil when there is no server) and
    ///     whether it delivers the outbox.
    ///   - onChange: called with each new status, from the session's task.
    ///   - onOutbox: called with each delivery pass that did something.
    ///   - onPath: called with each path event: the way out changed (interface, kind, a family)
    ///     while the state stayed what it was.
    init(parts: LiveSession.Parts, configuration: ConnConfiguration, logger: Logger,
         onChange: @escaping @Sendable (ReplStatus) -> Void, onOutbox: @escaping @Sendable (OutboxFlushWorker.Pass) -> Void,
         onPath: @escaping @Sendable (WatchEvent) -> Void) {
        let latest = Latest(ReplStatus(linkEnabled: parts.link != nil && parts.linkEnabled, linkAvailable: parts.link != nil))
        self.latest = latest
        session = LiveSession(parts, configuration: configuration, logger: logger) { event in
            if case .outbox(let pass) = event { onOutbox(pass) }
            if case .path(let path, _) = event { onPath(path) }
            if let changed = latest.fold(event) { onChange(changed) }
        }
    }

    /// Looks at once (a manual refresh); returns the status after the look.
    func refresh() async -> ReplStatus {
        await session.refresh()
        return current
    }

    /// Seed 002's isConnectionEnabled.
    func setLinkEnabled(_ enabled: Bool) {
        session.setLinkEnabled(enabled)
    }

    /// A line may have queued a message: a delivery pass (conn's backoff applies).
    func requestDelivery() {
        session.requestDelivery()
    }

    func stop() async {
        await session.stop()
    }
}

extension ReplStatus {
    /// A change the REPL reports: the state, the link, or whether the link is enabled.
    fileprivate func differs(from other: ReplStatus) -> Bool {
        state != other.state || link != other.link || linkEnabled != other.linkEnabled
    }
}
