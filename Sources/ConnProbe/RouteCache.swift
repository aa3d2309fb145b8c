import ConnCore
import Synchronization

/// The routes and interfaces one run has looked up: with many targets there are few
/// destinations and fewer routes, and each look-up costs syscalls (a socket, a connect, a
/// getsockname, a close; getifaddrs and sysfs reads for the interface). A run is one
/// `probeAll` or one monitor look, so a route that changes is seen by the next run.
final class RouteCache: Sendable {
    private let classifier: InterfaceClassifier
    private let routes = Mutex<[String: Result<RouteInspector.Route, RouteInspector.Failure>]>([:])
    private let interfaces = Mutex<[String: (String, InterfaceKind)?]>([:])

    init(classifier: InterfaceClassifier) { self.classifier = classifier }

    /// The route the kernel would take to the address.
    func route(to address: ResolvedAddress) -> Result<RouteInspector.Route, RouteInspector.Failure> {
        if let cached = routes.withLock({ $0[address.ip] }) { return cached }
        let found = RouteInspector.route(to: address)
        routes.withLock { $0[address.ip] = found }
        return found
    }

    /// The interface that holds a route's source address, and its kind.
    func interface(sourceIP: String) -> (String, InterfaceKind)? {
        if let cached = interfaces.withLock({ $0[sourceIP] }) { return cached }
        let found = RouteInspector.interfaceName(holding: sourceIP).map { ($0, classifier.kind(of: $0)) }
        interfaces.withLock { $0[sourceIP] = .some(found) }
        return found
    }
}
