import ConnCore
import ConnProbe
import Foundation

/// The decisions of `ConnectivityMonitor`, without its effects: inputs in, actions out, so the
/// rules (when to look, when to hold or restart the link, what to report) are tested on their
/// own, as `WatchEngine`'s hysteresis is. The monitor's task performs the actions: it runs the
/// check, sleeps, holds the WebSocket, and feeds back what happened.
public struct MonitorMachine: Sendable {
    public enum Input: Sendable, Equatable {
        /// The monitor has started.
        case start
        /// A timer scheduled by `.schedule` has fired.
        case timerFired(generation: Int)
        /// The kernel reported a change of links, addresses or routes (a burst already coalesced).
        case kernelChanged
        /// The way out as the routing table has it, read when only routes changed (before the
        /// look that `kernelChanged` starts).
        case wayOut(interface: InterfaceSummary?, path: NetworkPath, at: Date)
        /// A person asked for a look now (`refresh` in the REPL).
        case refreshRequested
        /// An internet check the last look did not wait for has ended: a look shows it.
        case internetSettled
        /// A look that `.look` asked for has finished.
        case looked(WatchObservation, at: Date)
        /// The link started by `.startLink(generation)` reports a state.
        case linkState(ConnectionState, generation: Int)
        /// The link was switched on or off (seed 002's isConnectionEnabled).
        case enableLink(Bool)
    }

    public enum Action: Sendable, Equatable {
        /// Run the connectivity check, then feed `.looked`.
        case look
        /// Feed `.timerFired(generation)` after this long; a new schedule replaces the old.
        case schedule(after: Duration, generation: Int)
        /// (Re)open the link to the server, tagging its states with this generation. It starts
        /// from the last offset known (kept through drops and re-enables); `initializing` is
        /// true when the link was just enabled (its first attempt), false for a reconnect.
        case startLink(generation: Int, lastOffset: Int?, initializing: Bool)
        /// Close the link.
        case stopLink
        /// Tell the monitor's owner.
        case report(ConnectivityMonitor.Event)
    }

    private(set) var engine: WatchEngine
    let hasLink: Bool
    private(set) var linkEnabled: Bool
    private(set) var linkState: ConnectionState?
    /// The back end's clock offset last measured, kept while the link is down or off.
    private var lastOffset: Int?
    /// The link closed since the last look: a second signal that the server is gone.
    private var linkDropped = false
    /// The link came up while the state reported was not online: held back until the look it
    /// asked for has been reported, so nobody hears "connected" while the state says otherwise.
    private var heldLink: ConnectionState?
    /// Timer and link tasks are replaced, not cancelled in place: what an old one still sends
    /// carries an old generation and is dropped.
    private var timerGeneration = 0
    private var linkGeneration = 0

    public init(engine: WatchEngine, hasLink: Bool, linkEnabled: Bool) {
        self.engine = engine
        self.hasLink = hasLink
        self.linkEnabled = hasLink && linkEnabled
    }

    public mutating func handle(_ input: Input) -> [Action] {
        switch input {
        case .start:
            return (linkEnabled ? [startLink(initializing: true)] : []) + [.look]
        case .timerFired(let generation):
            return generation == timerGeneration ? [.look] : []
        case .kernelChanged, .refreshRequested, .internetSettled:
            return [.look]
        case .wayOut(let interface, let path, let now):
            guard let event = engine.observeWayOut(interface: interface, path: path, at: now) else { return [] }
            return [.report(.path(event, reported: engine.reported))]
        case .looked(var observation, let now):
            if linkDropped, observation.status != .online { observation.definitive = true }
            linkDropped = false
            let wasReported = engine.reported
            let decision = engine.observe(observation, at: now)
            timerGeneration += 1
            var actions: [Action] = [.schedule(after: decision.recheckAfter, generation: timerGeneration)]
            // The server is back: reconnect now rather than when the link's backoff runs out.
            if decision.event?.saysServerOnline == true, wasReported != nil, linkEnabled, linkState?.isConnected != true {
                actions.append(startLink(initializing: false))
            }
            // Offline, the link cannot be up, whatever its socket has not noticed yet: say so
            // (before the look, so its event shows the link down), and drop the socket (a new
            // attempt waits for the network).
            if engine.reported?.state == .offline, linkEnabled, linkState?.isConnected == true {
                let dropped = ConnectionState.disconnected(backEndTimeOffsetMs: lastOffset, isInitializing: false)
                linkState = dropped
                actions += [startLink(initializing: false), .report(.link(dropped))]
            }
            actions.append(.report(.looked(decision, reported: engine.reported)))
            // The held "connected", after the look that followed it (unless the link has
            // dropped since, or the look found the device offline and dropped it above).
            if let held = heldLink {
                heldLink = nil
                if linkState == held, engine.reported?.state != .offline { actions.append(.report(.link(held))) }
            }
            return actions
        case .linkState(let state, let generation):
            guard generation == linkGeneration, linkEnabled else { return [] }
            let previous = linkState
            linkState = state
            if let offset = state.backEndTimeOffsetMs { lastOffset = offset }
            // Up while the state says the server is not reachable: look first, tell after.
            if state.isConnected, let reported = engine.reported, reported.state != .online {
                let isNews = heldLink == nil && previous?.isConnected != true
                heldLink = state
                if let previous, previous.isConnected != state.isConnected { linkDropped = false }
                // The server answered the link's upgrade: whoever waits for it (delivery) need not
                // wait for the look as well.
                return isNews ? [.report(.serverAnswered), .look] : []
            }
            heldLink = nil
            var actions: [Action] = [.report(.link(state))]
            // The socket closing (or opening again) is news about the server: look now.
            if let previous, previous.isConnected != state.isConnected {
                linkDropped = !state.isConnected
                actions.append(.look)
            }
            return actions
        case .enableLink(let enabled):
            guard hasLink, enabled != linkEnabled else { return [] }
            linkEnabled = enabled
            if enabled { return [startLink(initializing: true), .report(.linkEnabled(true))] }
            linkGeneration += 1
            linkState = nil
            return [.stopLink, .report(.linkEnabled(false))]
        }
    }

    private mutating func startLink(initializing: Bool) -> Action {
        linkGeneration += 1
        return .startLink(generation: linkGeneration, lastOffset: lastOffset, initializing: initializing)
    }
}
