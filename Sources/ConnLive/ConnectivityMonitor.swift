import ConnCore
import ConnProbe
import Foundation

/// The machine under `conn watch` and the REPL's live status: looks at the connection when the
/// engine says the next look is due, at once when the kernel reports a change of links,
/// addresses or routes (a burst coalesced), and when the live link to the back end opens or
/// closes (a closed socket counts as a definitive cause). Holds that link while it is enabled,
/// and reconnects it at once when the server comes back instead of after the link's backoff.
///
/// What to do is `MonitorMachine`'s decision; this class performs it (runs the check, keeps one
/// timer, holds the link) from one task, and reports everything it sees through `onEvent`, in
/// order: each look's decision, each link state, each change of the link's enabled flag.
public final class ConnectivityMonitor: Sendable {
    public enum Event: Sendable, Equatable {
        /// A look: the engine's decision (with an event when something changed) and the state
        /// reported since.
        case looked(WatchEngine.Decision, reported: NetworkState?)
        /// The way out changed while online, read from the routing table before a look (a
        /// `path` event), and the state reported since.
        case path(WatchEvent, reported: NetworkState?)
        /// A state of the live link (while enabled).
        case link(ConnectionState)
        /// The link was switched on or off (seed 002's isConnectionEnabled).
        case linkEnabled(Bool)
        /// The link came up while the state reported says the server is not reachable: the
        /// server answers (its WebSocket upgrade did), ahead of the look that will say so. Not
        /// news for a person (the state changes with the look), but delivery need not wait.
        case serverAnswered
        /// The kernel dropped notifications (ENOBUFS, a burst too large for the socket's
        /// buffer): the next look reads everything again, from the kernel's tables.
        case kernelNotificationsLost
    }

    private enum Trigger: Sendable {
        case input(MonitorMachine.Input)
        /// A coalesced burst of the kernel's notifications; `routesOnly`: no link or address changed.
        case netlink(routesOnly: Bool)
        case refresh(CheckedContinuation<Void, Never>)
        /// A look started as `generation` has finished.
        case lookDone(ConnectivityCheck.Snapshot, generation: Int)
    }

    /// Whether the kernel's notifications (rtnetlink) could be subscribed to; without them the
    /// monitor only polls.
    public let hasKernelNotifications: Bool
    private let triggers: AsyncStream<Trigger>.Continuation
    private let task: Task<Void, Never>

    /// - Parameters:
    ///   - link: the link to the back end to hold (nil: none).
    ///   - linkEnabled: whether to hold it from the start.
    ///   - onSnapshot: called with each look's per-target results, before its `looked` event
    ///     (the agent's metrics).
    ///   - onEvent: called with everything the monitor sees, in order, from its task.
    public convenience init(check: ConnectivityCheck, engine: WatchEngine, link: BackEndLink?, linkEnabled: Bool = true,
                            onSnapshot: (@Sendable (ConnectivityCheck.Snapshot) -> Void)? = nil,
                            onEvent: @escaping @Sendable (Event) -> Void) {
        self.init(source: .live(check), engine: engine, link: link, linkEnabled: linkEnabled, onSnapshot: onSnapshot, onEvent: onEvent)
    }

    /// A monitor over any source of looks and kernel notifications (a test's, in-process).
    public init(source: MonitorSource, engine: WatchEngine, link: BackEndLink?, linkEnabled: Bool = true,
                onSnapshot: (@Sendable (ConnectivityCheck.Snapshot) -> Void)? = nil,
                onEvent: @escaping @Sendable (Event) -> Void) {
        let (stream, triggers) = AsyncStream<Trigger>.makeStream()
        self.triggers = triggers
        hasKernelNotifications = source.kernelEvents != nil
        task = Task {
            var machine = MonitorMachine(engine: engine, hasLink: link != nil, linkEnabled: linkEnabled)
            // One pending timer and one link task at a time (a task per look, kept, would grow
            // without bound over hours).
            var timer: Alarm?  // an alarm: most are replaced before they fire (see `Alarm`)
            var linkTask: Task<Void, Never>?
            // One look at a time, run beside the loop so a kernel change that comes while it runs
            // starts a new one at once: a look begun before the carrier went may wait for TCP's
            // deadline, and its answer is stale by then (it is dropped, by its generation).
            var lookTask: Task<Void, Never>?
            var lookGeneration = 0
            var refreshes: [CheckedContinuation<Void, Never>] = []
            // The last look's answer: which address answered, for the way out on a route change.
            var lastSnapshot: ConnectivityCheck.Snapshot?
            let netlinkTask = source.kernelEvents.map { events in
                Task {
                    for await event in events {
                        switch event {
                        case .changed(let kinds):
                            triggers.yield(.netlink(routesOnly: kinds == ["route"]))
                        case .overrun:
                            onEvent(.kernelNotificationsLost)
                            triggers.yield(.netlink(routesOnly: false))
                        }
                    }
                }
            }
            let settledTask = source.internetSettled.map { settled in
                Task {
                    for await _ in settled { triggers.yield(.input(.internetSettled)) }
                }
            }
            defer {
                timer?.cancel()
                linkTask?.cancel()
                lookTask?.cancel()
                netlinkTask?.cancel()
                settledTask?.cancel()
                refreshes.forEach { $0.resume() }
            }
            func perform(_ actions: [MonitorMachine.Action]) {
                for action in actions {
                    switch action {
                    case .look:
                        lookGeneration += 1
                        let generation = lookGeneration
                        lookTask?.cancel()
                        lookTask = Task {
                            triggers.yield(.lookDone(await source.look(), generation: generation))
                        }
                    case .schedule(let delay, let generation):
                        timer?.cancel()
                        timer = Alarm(after: delay) { triggers.yield(.input(.timerFired(generation: generation))) }
                    case .startLink(let generation, let lastOffset, let initializing):
                        linkTask?.cancel()
                        linkTask = link.map { link in
                            Task {
                                for await state in link.states(lastOffset: lastOffset, initializing: initializing) { triggers.yield(.input(.linkState(state, generation: generation))) }
                            }
                        }
                    case .stopLink:
                        linkTask?.cancel()
                    case .report(let event):
                        onEvent(event)
                    }
                }
            }

            perform(machine.handle(.start))
            for await trigger in stream {
                switch trigger {
                case .input(let input):
                    perform(machine.handle(input))
                case .netlink(let routesOnly):
                    // Only routes moved: the way out is known from the routing table at once,
                    // before the look (which needs the server to answer over it).
                    if routesOnly, let lastSnapshot {
                        let (interface, path) = source.wayOut(lastSnapshot)
                        perform(machine.handle(.wayOut(interface: interface?.summary, path: path, at: Date())))
                    }
                    // One per burst: NetlinkMonitor has coalesced it.
                    perform(machine.handle(.kernelChanged))
                case .refresh(let reply):
                    refreshes.append(reply)
                    perform(machine.handle(.refreshRequested))
                case .lookDone(let snapshot, let generation):
                    guard generation == lookGeneration else { continue }  // a newer look runs
                    lastSnapshot = snapshot
                    onSnapshot?(snapshot)
                    perform(machine.handle(.looked(WatchObservation(snapshot), at: Date())))
                    refreshes.forEach { $0.resume() }
                    refreshes = []
                }
            }
        }
    }

    /// Looks at once; returns once the look has been reported.
    public func refresh() async {
        await withCheckedContinuation { triggers.yield(.refresh($0)) }
    }

    public func setLinkEnabled(_ enabled: Bool) {
        triggers.yield(.input(.enableLink(enabled)))
    }

    public func stop() {
        triggers.finish()
        task.cancel()
    }
}
