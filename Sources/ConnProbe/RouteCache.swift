import ConnCore
import Synchronization

/// The routes and interfaces one run has looked up: with many targets there are few
/// destinations and fewer routes, and each look-up costs syscalls (a socket, a connect, a
/// getsockname, a close; getifaddrs and sysfs reads for the interface). A run is one
/// `probeAll` or one monitor look, so a route that changes is seen by the next run.
final class RouteCache: Sendable {
    private let classifier: InterfaceClassifier
    private let routes = Mutex<[String: Result<RouteInspector.Route, RouteInspector.Failure>]>([:])
    private let interfaces = Mutex<[String: Found?]>([:])

    /// The interface that holds a route's source address: its name, its kind, and whether it
    /// has a carrier.
    struct Found: Sendable {
        var name: String
        var kind: InterfaceKind
        var running: Bool

        /// As a probe result reports it, for a route from `sourceAddress`.
        func probeInterface(sourceAddress: String) -> ProbeInterface {
            ProbeInterface(name: name, kind: kind, expensive: kind.isExpensive, sourceAddress: sourceAddress)
        }
    }

    /// The way out every look-up of the run is bound to (`--interface`, `-4`, `-6`).
    let egress: Egress

    init(classifier: InterfaceClassifier, egress: Egress = .any) {
        self.classifier = classifier
        self.egress = egress
    }

    /// The route the kernel would take to the address.
    func route(to address: ResolvedAddress) -> Result<RouteInspector.Route, RouteInspector.Failure> {
        if let cached = routes.withLock({ $0[address.ip] }) { return cached }
        let found = RouteInspector.route(to: address, egress: egress)
        routes.withLock { $0[address.ip] = found }
        return found
    }

    /// The interface that holds a route's source address.
    func interface(sourceIP: String) -> Found? {
        if let cached = interfaces.withLock({ $0[sourceIP] }) { return cached }
        // Bound to a device, the way out is that device, whichever address the kernel chose.
        let holder = egress.interface.flatMap { name in LocalInterface.current().first { $0.name == name }.map { (name: $0.name, running: $0.running) } }
            ?? RouteInspector.interface(holding: sourceIP)
        let found = holder.map { Found(name: $0.name, kind: classifier.kind(of: $0.name), running: $0.running) }
        interfaces.withLock { $0[sourceIP] = .some(found) }
        return found
    }

    /// The interface the route to `address` leaves by; nil without a route, or when no
    /// interface holds the route's source address.
    func interface(to address: ResolvedAddress) -> ProbeInterface? {
        guard case .success(let route) = route(to: address) else { return nil }
        return interface(sourceIP: route.sourceIP)?.probeInterface(sourceAddress: route.sourceIP)
    }
}
