import ConnCore
import ConnProbe

/// One look at connectivity, reduced to what the engine needs.
public struct WatchObservation: Sendable, Equatable {
    /// What the look saw (its `since` is the engine's to set).
    public var state: NetworkState
    /// A local, certain cause (the link is gone) or a second signal (the server's socket closed):
    /// the failure is confirmed by this look, not by a second look a second later.
    public var definitive: Bool
    /// The routing table's way out at the look (nil when not read).
    public var path: NetworkPath?
    /// What the look shows of the internet check (nil: none runs, or nothing new).
    public var internet: InternetReading?

    public var status: NetworkStatus { state.state }

    public init(state: NetworkState, definitive: Bool) {
        self.state = state
        self.definitive = definitive
    }

    public init(status: NetworkStatus, reason: StateReason? = nil, failingTarget: String? = nil, definitive: Bool = false) {
        self.init(state: NetworkState(state: status, reason: reason, failingTarget: failingTarget), definitive: definitive)
    }

    /// Reduces a connectivity snapshot to its state. Only offline is definitive by itself;
    /// `MonitorMachine` adds a closed link to the server as a second signal.
    public init(_ snapshot: ConnectivityCheck.Snapshot) {
        let state = snapshot.networkState
        self.init(state: state, definitive: state.state == .offline)
        path = snapshot.path
        internet = InternetReading(snapshot)
    }

    /// What makes the way out: the interface the state was seen through and the routing
    /// table's default routes. A change of any is a `path` event even while the state stays.
    struct PathKey: Equatable {
        var interface: InterfaceSummary?
        var path: NetworkPath?
    }

    var pathKey: PathKey { PathKey(interface: state.interface, path: path) }
}
