import ConnCore
import ConnProbe
import Foundation

/// The hysteresis of `conn watch`, as a pure state machine: observations in, events and the
/// next check time out.
///
/// - The first observation is the baseline, not a change.
/// - Recovery is reported on the first success.
/// - A failure is reported once confirmed, and not before the grace period since the first
///   failure has passed (so a flap shorter than the grace period gives no event). A second
///   failed look a second later confirms it; a definitive cause (the kernel has no link or
///   route, or the server's socket closed) confirms it by itself, so it is reported on its
///   first look: a look again would read the same kernel state, and would only add latency.
/// - Nothing is reported while the state stays the same, except a change of the way out (the
///   interface, the default routes): a `path` event, as NWPathMonitor reports every path update;
///   and what the internet check found, when it differs from what was last said (an `internet`
///   event; the check's end never holds the targets' verdict, so it may come after it).
public struct WatchEngine: Sendable {
    public var interval: Duration
    public var grace: Duration

    /// The state last reported, with when it began; its other facts (reason, interface…) follow
    /// each look that saw the same state.
    public private(set) var reported: NetworkState?
    private var downSince: Date?
    private var suspect: (observation: WatchObservation, since: Date, looks: Int)?
    /// Rechecks since the current failure was reported: 1 s, doubling up to the interval.
    private var failedRechecks = 0
    /// The way out as of the last reported state or path event.
    private var lastPath: WatchObservation.PathKey?
    /// What the internet check found, as every event since says (nil: no check runs).
    public private(set) var internet: InternetReading?

    public init(interval: Duration, grace: Duration) {
        self.interval = interval
        self.grace = grace
    }

    public struct Decision: Sendable, Equatable {
        public var event: WatchEvent?
        /// When to look again.
        public var recheckAfter: Duration
    }

    public mutating func observe(_ observation: WatchObservation, at now: Date) -> Decision {
        var internetMoved = false
        if let reading = observation.internet, reading.isNews(after: internet) {
            internetMoved = internet != nil
            internet = reading
        }
        var decision = decide(observation, at: now)
        if decision.event == nil, internetMoved, let reported {
            decision.event = WatchEvent(type: .internet, at: now, from: nil, state: reported, downtimeMs: nil)
        }
        decision.event?.internet = internet
        return decision
    }

    private mutating func decide(_ observation: WatchObservation, at now: Date) -> Decision {
        guard let previous = reported else {
            let state = report(observation, since: now)
            if state.state != .online { downSince = now }
            return Decision(event: .init(type: .baseline, at: now, from: nil, state: state, downtimeMs: nil),
                            recheckAfter: state.state == .online ? interval : .seconds(1))
        }
        if observation.status == previous.state {
            suspect = nil
            let pathMoved = observation.pathKey != lastPath
            let state = report(observation, since: previous.since ?? now)
            let event = pathMoved ? WatchEvent(type: .path, at: now, from: nil, state: state, downtimeMs: nil) : nil
            if previous.state == .online { return Decision(event: event, recheckAfter: interval) }
            return Decision(event: event, recheckAfter: nextFailureBackoff())
        }
        if observation.status == .online {
            let downtime = downSince.map { (now.timeIntervalSince($0) * 1000).rounded() }
            let state = report(observation, since: now)
            downSince = nil
            suspect = nil
            failedRechecks = 0
            return Decision(event: .init(type: .change, at: now, from: previous.state, state: state, downtimeMs: downtime),
                            recheckAfter: interval)
        }
        // A different failure, or the first failure after being online: confirm it first.
        var looks = 1
        var since = now
        if let suspect, suspect.observation.status == observation.status {
            looks = suspect.looks + 1
            since = suspect.since
        }
        let definitive = observation.definitive || (suspect?.observation.definitive ?? false)
        suspect = (observation, since, looks)
        let graceLeft = grace - .milliseconds(Int64(now.timeIntervalSince(since) * 1000))
        if (looks >= 2 || definitive) && graceLeft <= .zero {
            // The state began with the first look that saw it, not with its confirmation.
            let state = report(observation, since: since)
            if downSince == nil { downSince = since }
            suspect = nil
            failedRechecks = 0
            return Decision(event: .init(type: .change, at: now, from: previous.state, state: state, downtimeMs: nil),
                            recheckAfter: nextFailureBackoff())
        }
        return Decision(event: nil, recheckAfter: max(looks >= 2 || definitive ? .zero : .seconds(1), graceLeft))
    }

    /// The way out read from the routing table alone, before a look (a route notification):
    /// while online, a different way out is a `path` event now; the look that follows confirms
    /// the state (and reports a change if the server cannot be reached that way). Nothing while
    /// not online or before the baseline: the look decides then.
    public mutating func observeWayOut(interface: InterfaceSummary?, path: NetworkPath, at now: Date) -> WatchEvent? {
        guard var state = reported, state.state == .online, suspect == nil else { return nil }
        let key = WatchObservation.PathKey(interface: interface, path: path)
        guard key != lastPath else { return nil }
        lastPath = key
        state.interface = interface
        if !path.ipv4Route { state.ipv4 = false }
        if !path.ipv6Route { state.ipv6 = false }
        reported = state
        var event = WatchEvent(type: .path, at: now, from: nil, state: state, downtimeMs: nil)
        event.internet = internet
        return event
    }

    private mutating func report(_ observation: WatchObservation, since: Date) -> NetworkState {
        lastPath = observation.pathKey
        var state = observation.state
        state.since = since
        reported = state
        return state
    }

    private mutating func nextFailureBackoff() -> Duration {
        failedRechecks += 1
        return Backoff(base: .seconds(1), cap: interval).ceiling(afterAttempt: failedRechecks)
    }
}
