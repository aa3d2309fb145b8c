import ConnCore

extension ConnectivityCheck.Snapshot {
    /// Why every target failed, when the device itself is the cause: the internet check found
    /// it offline, or no target answered and the links say so. Only a missing interface,
    /// carrier or address is certain from the links alone; "no route" must come from the
    /// probes themselves.
    static func offlineReason(results: [ProbeResult], internet: InternetVerdict?) -> OfflineReason? {
        if case .offline(let reason) = internet?.state { return reason }
        guard !results.isEmpty, !results.contains(where: \.reachable) else { return nil }
        // A target that answered at all (refused, a TLS or HTTP failure) proves the way to it
        // works: a server refusing on loopback is not "no interface".
        let silent: Set<ReachabilityFailure> = [.noRoute, .noCarrier, .timeout, .nxdomain]
        guard results.allSatisfy({ $0.failure.map(silent.contains) ?? false }) else { return nil }
        // Every target's way out has lost its carrier: certain, whatever other links do.
        if results.allSatisfy({ $0.failure == .noCarrier }) { return .noCarrier }
        let reason = InterfaceScan.offlineReason()
        return reason != .noRoute || results.allSatisfy({ $0.failure == .noRoute }) ? reason : nil
    }

    /// The state this look shows, in the shape every command reports (`since` is left to
    /// whoever follows the state over time). The one verdict: probe's text, JSON and exit status,
    /// watch, the agent, metrics and the REPL all render this value.
    /// - offline when the links say so;
    /// - portal when a sign-in page answers for the server, or the internet check finds one
    ///   and the targets do not settle it (some failed, or the internet is required);
    /// - serverUnreachable naming the first target that failed and how;
    /// - serverUnreachable with what the internet check found (limited, dnsBroken) when the
    ///   internet is required (asked for, or nothing else was checked) and is not online;
    /// - otherwise online.
    public var networkState: NetworkState {
        let failing = results.first { !$0.reachable }
        var state = NetworkState(state: .online, interface: interface?.summary)
        (state.ipv4, state.ipv6) = addressFamiliesAnswered
        // A family with no route at all did not work, whether or not anything was tried that way.
        if let path {
            if state.ipv4 == nil, !path.ipv4Route { state.ipv4 = false }
            if state.ipv6 == nil, !path.ipv6Route { state.ipv6 = false }
        }
        if let offlineReason {
            state.state = .offline
            state.reason = StateReason(offlineReason)
            state.failingTarget = failing?.target
            return state
        }
        if let portal = results.first(where: { $0.failure == .portal }) {
            state.state = .portal
            state.reason = .portal
            state.failingTarget = portal.target
            return state
        }
        let internetDecides = internetRequired || results.isEmpty
        if case .portal(let url) = internet?.state, internetDecides || !allTargetsReachable {
            state.state = .portal
            state.reason = .portal
            state.failingTarget = url
            return state
        }
        if let failing {
            state.state = .serverUnreachable
            state.reason = failing.failure.map(StateReason.init)
            state.failingTarget = failing.target
            return state
        }
        if let internet, internetDecides, internet.state != .online {
            state.state = .serverUnreachable
            state.reason = StateReason(internet.state)
        }
        return state
    }

    /// Per address family: true when something answered that way, false when everything tried
    /// that way failed, nil when nothing was tried that way (the targets and the internet check
    /// together).
    var addressFamiliesAnswered: (ipv4: Bool?, ipv6: Bool?) {
        // One pass, each result's family read once: a run may hold thousands of results.
        var ipv4: Bool?
        var ipv6: Bool?
        for result in results {
            switch InternetCheck.family(of: result) {
            case 4: ipv4 = ipv4 == true || result.reachable
            case 6: ipv6 = ipv6 == true || result.reachable
            default: break
            }
        }
        func merge(_ targets: Bool?, _ internet: Bool?) -> Bool? {
            switch (targets, internet) {
            case (nil, let other), (let other, nil): return other
            case (let a?, let b?): return a || b
            }
        }
        return (merge(ipv4, internet?.ipv4), merge(ipv6, internet?.ipv6))
    }
}
