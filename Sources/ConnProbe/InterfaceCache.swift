import ConnCore
import Synchronization

/// Route source address → interface name and kind, looked up once per run: with many targets
/// there are few routes, and getifaddrs plus sysfs reads are not free.
final class InterfaceCache: Sendable {
    private let classifier: InterfaceClassifier
    private let entries = Mutex<[String: (String, InterfaceKind)?]>([:])

    init(classifier: InterfaceClassifier) { self.classifier = classifier }

    func lookup(sourceIP: String) -> (String, InterfaceKind)? {
        if let cached = entries.withLock({ $0[sourceIP] }) { return cached }
        let found = RouteInspector.interfaceName(holding: sourceIP).map { ($0, classifier.kind(of: $0)) }
        entries.withLock { $0[sourceIP] = .some(found) }
        return found
    }
}
