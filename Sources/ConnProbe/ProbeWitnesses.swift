import ConnCore

/// The few results of a run that its verdict reads, kept while the rest are let go (a report
/// printed as it goes over 10,000 targets). `Snapshot.networkState` and `offlineReason` only ask
/// "the first result that …" and "is there any result that …" (an "all" is "no result that is
/// not"); keeping, in the targets' order, the first result of each kind they ask about gives the
/// same answers as keeping them all.
struct ProbeWitnesses {
    private(set) var results: [ProbeResult] = []
    /// How many results were offered.
    private(set) var count = 0
    private var seen: Set<Kind> = []

    private enum Kind: Hashable {
        case any, reachable, failing, portal, notSilent, notNoCarrier, notNoRoute
        case family(Int), reachableFamily(Int)
    }

    /// The failures that say nothing answered (see `Snapshot.offlineReason`).
    private static let silent: Set<ReachabilityFailure> = [.noRoute, .noCarrier, .timeout, .nxdomain]

    mutating func add(_ result: ProbeResult) {
        count += 1
        var kinds: [Kind] = [.any, result.reachable ? .reachable : .failing]
        let failure = result.failure
        if failure == .portal { kinds.append(.portal) }
        if !(failure.map(Self.silent.contains) ?? false) { kinds.append(.notSilent) }
        if failure != .noCarrier { kinds.append(.notNoCarrier) }
        if failure != .noRoute { kinds.append(.notNoRoute) }
        if let family = InternetCheck.family(of: result) {
            kinds.append(.family(family))
            if result.reachable { kinds.append(.reachableFamily(family)) }
        }
        var witnesses = false
        for kind in kinds where seen.insert(kind).inserted { witnesses = true }
        if witnesses { results.append(result) }
    }
}
