import ConnCore
import ConnProbe
import ConnWatch
import Foundation
import Logging
import Synchronization

/// The REPL's background monitor: the watch engine's hysteresis over periodic checks and kernel
/// notifications, and the live link to the back end. Reports every change of its status; the
/// latest status (with when it was last checked, changed or not) can be read at any time.
final class ConnectionMonitor: Sendable {
    /// The status after the latest look or link event. A class so the monitor's task can hold
    /// it before `self` exists.
    private final class Latest: Sendable {
        let status = Mutex<ConnectionStatus?>(nil)
    }

    private enum Trigger: Sendable {
        case timer(generation: Int)
        case netlink
        case link(ConnectionState, generation: Int)
        case refresh(CheckedContinuation<ConnectionStatus, Never>)
        case enableLink(Bool)
    }

    private let triggers: AsyncStream<Trigger>.Continuation
    private let task: Task<Void, Never>
    private let latest = Latest()

    /// The status as of the latest look: `checkedAt` moves on with every look, even when
    /// nothing changed (the change handler hears only changes). Nil before the first look.
    var current: ConnectionStatus? { latest.status.withLock { $0 } }

    /// - Parameters:
    ///   - link: the link to hold while enabled (nil: no server, no link).
    ///   - onChange: called with each new status, from the monitor's task.
    init(check: ConnectivityCheck, interval: Duration, link: BackEndLink?, linkEnabled: Bool, onChange: @escaping @Sendable (ConnectionStatus) -> Void) {
        let (stream, triggers) = AsyncStream<Trigger>.makeStream()
        self.triggers = triggers
        let latest = latest
        task = Task {
            var engine = WatchEngine(interval: interval, grace: .zero)
            var status = ConnectionStatus(linkEnabled: link != nil && linkEnabled, linkAvailable: link != nil)
            var generation = 0
            var timer: Task<Void, Never>?
            var linkGeneration = 0
            var linkTask: Task<Void, Never>?
            var netlinkTask: Task<Void, Never>?
            defer {
                timer?.cancel()
                linkTask?.cancel()
                netlinkTask?.cancel()
            }
            if let monitor = NetlinkMonitor() {
                netlinkTask = Task {
                    for await _ in monitor.events() { triggers.yield(.netlink) }
                }
            }
            func startLink() {
                guard let link else { return }
                linkGeneration += 1
                let current = linkGeneration
                linkTask?.cancel()
                linkTask = Task {
                    for await state in link.states() { triggers.yield(.link(state, generation: current)) }
                }
            }
            var linkDropped = false
            func look() async {
                let snapshot = await check.run()
                let decision = engine.observe(WatchObservation(snapshot, linkDropped: linkDropped), at: Date())
                linkDropped = false
                generation += 1
                let current = generation
                timer?.cancel()
                timer = Task {
                    try? await Task.sleep(for: decision.recheckAfter)
                    triggers.yield(.timer(generation: current))
                }
                var next = status
                next.checkedAt = Date()
                // The server is back: reconnect the link now rather than after its backoff.
                if decision.event?.to == .online, status.state != nil, status.linkEnabled, status.link?.isConnected != true {
                    startLink()
                }
                if let event = decision.event {
                    next.state = event.to
                    next.reason = event.reason
                    next.interface = event.interface
                }
                publish(next)
            }
            func publish(_ next: ConnectionStatus) {
                let changed = next.state != status.state || next.link != status.link || next.linkEnabled != status.linkEnabled
                status = next
                latest.status.withLock { $0 = next }
                if changed { onChange(next) }
            }
            if status.linkEnabled { startLink() }
            await look()
            for await trigger in stream {
                switch trigger {
                case .timer(let number):
                    if number == generation { await look() }
                case .netlink:
                    try? await Task.sleep(for: .milliseconds(3))
                    await look()
                case .link(let state, let number):
                    guard number == linkGeneration, status.linkEnabled else { continue }
                    let previous = status.link
                    var next = status
                    next.link = state
                    publish(next)
                    // The socket closing (or opening) is news about the server: look now.
                    if let previous, previous.isConnected != state.isConnected {
                        linkDropped = !state.isConnected
                        await look()
                    }
                case .refresh(let reply):
                    await look()
                    reply.resume(returning: status)
                case .enableLink(let enabled):
                    guard link != nil, enabled != status.linkEnabled else { continue }
                    var next = status
                    next.linkEnabled = enabled
                    if enabled {
                        startLink()
                    } else {
                        linkTask?.cancel()
                        linkGeneration += 1
                        next.link = nil
                    }
                    publish(next)
                }
            }
        }
    }

    /// Looks at once (a manual refresh); returns the status after the look.
    func refresh() async -> ConnectionStatus {
        await withCheckedContinuation { triggers.yield(.refresh($0)) }
    }

    /// Seed 002's isConnectionEnabled.
    func setLinkEnabled(_ enabled: Bool) {
        triggers.yield(.enableLink(enabled))
    }

    func stop() {
        triggers.finish()
        task.cancel()
    }
}
