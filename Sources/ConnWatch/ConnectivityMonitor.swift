import ConnCore
import ConnProbe
import Foundation

/// The machine under `conn watch` and the REPL's live status: looks at the connection when the
/// engine says the next look is due, at once when the kernel reports a change of links,
/// addresses or routes (a burst coalesced), and when the live link to the back end opens or
/// closes (a closed socket counts as a definitive cause). Holds that link while it is enabled,
/// and reconnects it at once when the server comes back instead of after the link's backoff.
///
/// Everything it sees it reports through `onEvent`, in order, from its own task: each look's
/// decision, each link state, each change of the link's enabled flag.
public final class ConnectivityMonitor: Sendable {
    public enum Event: Sendable {
        /// A look: the engine's decision (with an event when something changed) and the state
        /// reported since.
        case looked(WatchEngine.Decision, reported: WatchState?)
        /// A state of the live link (while enabled).
        case link(ConnectionState)
        /// The link was switched on or off (seed 002's isConnectionEnabled).
        case linkEnabled(Bool)
    }

    private enum Trigger: Sendable {
        case timer(generation: Int)
        case netlink
        case link(ConnectionState, generation: Int)
        case refresh(CheckedContinuation<Void, Never>)
        case enableLink(Bool)
    }

    /// Whether the kernel's notifications (rtnetlink) could be subscribed to; without them the
    /// monitor only polls.
    public let hasKernelNotifications: Bool
    private let triggers: AsyncStream<Trigger>.Continuation
    private let task: Task<Void, Never>

    /// - Parameters:
    ///   - link: the link to the back end to hold (nil: none).
    ///   - linkEnabled: whether to hold it from the start.
    ///   - onEvent: called with everything the monitor sees, in order, from its task.
    public init(check: ConnectivityCheck, engine: WatchEngine, link: BackEndLink?, linkEnabled: Bool = true,
                onEvent: @escaping @Sendable (Event) -> Void) {
        let (stream, triggers) = AsyncStream<Trigger>.makeStream()
        self.triggers = triggers
        let netlink = NetlinkMonitor()
        hasKernelNotifications = netlink != nil
        task = Task {
            var engine = engine
            var linkEnabled = link != nil && linkEnabled
            var linkState: ConnectionState?
            var linkDropped = false
            // One pending timer: a new schedule replaces the old (a task per look, kept, would
            // grow without bound over hours). Generations drop what a replaced one sends.
            var generation = 0
            var timer: Task<Void, Never>?
            var linkGeneration = 0
            var linkTask: Task<Void, Never>?
            let netlinkTask = netlink.map { monitor in
                Task {
                    for await _ in monitor.events() { triggers.yield(.netlink) }
                }
            }
            defer {
                timer?.cancel()
                linkTask?.cancel()
                netlinkTask?.cancel()
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
            func look() async {
                let snapshot = await check.run()
                let wasReported = engine.reported
                let decision = engine.observe(WatchObservation(snapshot, linkDropped: linkDropped), at: Date())
                linkDropped = false
                generation += 1
                let current = generation
                timer?.cancel()
                timer = Task {
                    try? await Task.sleep(for: decision.recheckAfter)
                    triggers.yield(.timer(generation: current))
                }
                if decision.event?.to == .online, wasReported != nil, linkEnabled, linkState?.isConnected != true {
                    startLink()
                }
                onEvent(.looked(decision, reported: engine.reported))
            }

            if linkEnabled { startLink() }
            await look()
            for await trigger in stream {
                switch trigger {
                case .timer(let number):
                    if number == generation { await look() }
                case .netlink:
                    // Coalesce a burst (a link going down brings its addresses and routes along).
                    try? await Task.sleep(for: .milliseconds(3))
                    await look()
                case .link(let state, let number):
                    guard number == linkGeneration, linkEnabled else { continue }
                    let previous = linkState
                    linkState = state
                    onEvent(.link(state))
                    // The socket closing (or opening again) is news about the server: look now.
                    if let previous, previous.isConnected != state.isConnected {
                        linkDropped = !state.isConnected
                        await look()
                    }
                case .refresh(let reply):
                    await look()
                    reply.resume()
                case .enableLink(let enabled):
                    guard link != nil, enabled != linkEnabled else { continue }
                    linkEnabled = enabled
                    if enabled {
                        startLink()
                    } else {
                        linkTask?.cancel()
                        linkGeneration += 1
                        linkState = nil
                    }
                    onEvent(.linkEnabled(enabled))
                }
            }
        }
    }

    /// Looks at once; returns once the look has been reported.
    public func refresh() async {
        await withCheckedContinuation { triggers.yield(.refresh($0)) }
    }

    public func setLinkEnabled(_ enabled: Bool) {
        triggers.yield(.enableLink(enabled))
    }

    public func stop() {
        triggers.finish()
        task.cancel()
    }
}
