import ConnCore
import ConnProbe

/// One look at connectivity, reduced to what the engine needs.
public struct WatchObservation: Sendable, Equatable {
    public var state: NetworkStatus
    /// The cause: an offline reason (noCarrier…) or the first failing layer (refused, timeout…).
    public var reason: String?
    public var interface: String?
    /// A local, certain cause (the link is gone) or a second signal (the server's socket closed):
    /// confirm at once instead of after a second look a second later.
    public var definitive: Bool

    public init(state: NetworkStatus, reason: String?, interface: String?, definitive: Bool) {
        self.state = state
        self.reason = reason
        self.interface = interface
        self.definitive = definitive
    }

    /// Reduces a connectivity snapshot: offline when the links say so; a portal when the
    /// internet check finds one; online when every target answers (or, with no targets, the
    /// internet does); otherwise the server is unreachable. Only offline is definitive by
    /// itself; `MonitorMachine` adds a closed link to the server as a second signal.
    public init(_ snapshot: ConnectivityCheck.Snapshot) {
        let interface = snapshot.interface?.name
        if let reason = snapshot.offlineReason {
            self.init(state: .offline, reason: reason.rawValue, interface: interface, definitive: true)
            return
        }
        if case .portal = snapshot.internet?.state, !(snapshot.allTargetsReachable && !snapshot.results.isEmpty) {
            self.init(state: .portal, reason: snapshot.internet?.state.name, interface: interface, definitive: false)
            return
        }
        let internetOK = snapshot.internet.map { $0.state == .online || $0.state == .dnsBroken } ?? true
        let online = snapshot.results.isEmpty ? internetOK : snapshot.allTargetsReachable
        if online {
            self.init(state: .online, reason: nil, interface: interface, definitive: false)
        } else {
            let failing = snapshot.results.first { !$0.reachable }
            self.init(state: .serverUnreachable, reason: failing?.verdict ?? snapshot.internet?.state.name,
                      interface: interface, definitive: false)
        }
    }
}
