import ConnCore

extension ConnectivityCheck.Snapshot {
    /// Why every target failed, when the device itself is the cause: the internet check found
    /// it offline, or no target answered and the links say so. Only a missing interface,
    /// carrier or address is certain from the links alone; "no route" must come from the
    /// probes themselves.
    static func offlineReason(results: [ProbeResult], internet: InternetVerdict?) -> OfflineReason? {
        if case .offline(let reason) = internet?.state { return reason }
        guard !results.isEmpty, !results.contains(where: \.reachable) else { return nil }
        let reason = InterfaceScan.offlineReason()
        return reason != .noRoute || results.allSatisfy({ $0.failure == .noRoute }) ? reason : nil
    }

    /// The state this look shows, in the shape every command reports (`since` is left to
    /// whoever follows the state over time):
    /// - offline when the links say so;
    /// - portal when a sign-in page answers for the server, or the internet check finds one
    ///   and not every target answered;
    /// - online when every target answers (with no targets: when the internet does);
    /// - otherwise serverUnreachable, naming the first target that failed and how.
    public var networkState: NetworkState {
        let failing = results.first { !$0.reachable }
        var state = NetworkState(state: .online, interface: interface.map { InterfaceSummary(name: $0.name, kind: $0.kind, expensive: $0.expensive) })
        (state.ipv4, state.ipv6) = addressFamiliesAnswered
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
        if case .portal(let url) = internet?.state, !(allTargetsReachable && !results.isEmpty) {
            state.state = .portal
            state.reason = .portal
            state.failingTarget = url
            return state
        }
        let internetOK = internet.map { $0.state == .online || $0.state == .dnsBroken } ?? true
        if results.isEmpty ? internetOK : allTargetsReachable { return state }
        state.state = .serverUnreachable
        if let failing {
            state.reason = failing.failure.map(StateReason.init)
            state.failingTarget = failing.target
        } else if let internet {
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
