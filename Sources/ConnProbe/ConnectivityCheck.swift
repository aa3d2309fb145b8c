import ConnCore
import Foundation

/// One look at everything a monitor cares about — the targets, the internet check, the links —
/// for `conn watch` and the REPL, which re-run it on every change.
public struct ConnectivityCheck: Sendable {
    public let targets: [ProbeTarget]
    public let internetEndpoints: [InternetEndpoint]
    /// Whether the internet must answer for the state to be online (it was asked for, or there
    /// is nothing else to check); otherwise the targets decide and the internet check only
    /// adds what it found (a portal, the address families).
    public let internetRequired: Bool
    let runner: ProbeRunner
    /// The internet check of a monitor's looks, shared by them (see `run(onInternetSettled:)`).
    private let lookout = InternetLookout()

    public init(targets: [ProbeTarget], internetEndpoints: [InternetEndpoint], internetRequired: Bool? = nil, timeout: Duration, trust: ServerTrust,
                credentials: Credentials?, concurrency: Int = 32, proxies: ProxySettings = .none, egress: Egress = .any) {
        self.targets = targets
        self.internetEndpoints = internetEndpoints
        self.internetRequired = !internetEndpoints.isEmpty && (internetRequired ?? targets.isEmpty)
        let prober = Prober(timeout: timeout, trust: trust, expectation: .init(), credentials: credentials, proxies: proxies, egress: egress)
        runner = ProbeRunner(prober: prober, concurrency: concurrency)
    }

    /// A monitor's check from the configuration: its credentials, its proxies (a setting that
    /// does not parse is refused, see `checkProxies`), its way out (`egress`), and each look bounded by the configured timeout
    /// but never more than 5 s, so a dead network is noticed quickly.
    public init(targets: [ProbeTarget], internetEndpoints: [InternetEndpoint], internetRequired: Bool? = nil, configuration: ConnConfiguration) throws {
        try Self.checkProxies(configuration.proxy, for: targets + internetEndpoints.map(\.target))
        self.init(targets: targets, internetEndpoints: internetEndpoints, internetRequired: internetRequired, timeout: min(configuration.timeout, .seconds(5)),
                  trust: configuration.serverTrust, credentials: configuration.credentials, proxies: configuration.proxy,
                  egress: configuration.egress)
    }

    /// The proxy each URL target would take, checked before any is probed: a setting that does
    /// not parse is 64 naming it — going direct instead would report on another path than the
    /// one set.
    public static func checkProxies(_ proxies: ProxySettings, for targets: [ProbeTarget]) throws {
        for target in targets {
            guard case .url(let url) = target.kind else { continue }
            _ = try proxies.decision(for: url)
        }
    }

    public struct Snapshot: Sendable {
        public init(results: [ProbeResult], internet: InternetVerdict?, offlineReason: OfflineReason?, path: NetworkPath? = nil,
                    internetRequired: Bool = false) {
            self.results = results
            self.internet = internet
            self.offlineReason = offlineReason
            self.path = path
            self.internetRequired = internetRequired
        }

        public var results: [ProbeResult]
        public var internet: InternetVerdict?
        /// Set when every target failed and the links say why: the device itself is offline.
        public var offlineReason: OfflineReason?
        /// One look's answers, with what the links and the routing table say now: the offline
        /// reason when every target failed, and the way out.
        init(judging results: [ProbeResult], internet: InternetVerdict?, classifier: InterfaceClassifier, internetRequired: Bool) {
            self.init(results: results, internet: internet, offlineReason: Self.offlineReason(results: results, internet: internet),
                      path: NetworkPath.current(routes: RouteCache(classifier: classifier)), internetRequired: internetRequired)
        }

        /// The routing table's way out at the time of the look.
        public var path: NetworkPath?
        /// Whether the internet check decides too (see `ConnectivityCheck.internetRequired`).
        public var internetRequired: Bool
        /// The internet check had not answered when the targets were judged (a monitor's look:
        /// `internet` is nil, and the next look shows what it found).
        public var internetPending = false

        public var allTargetsReachable: Bool { results.allSatisfy(\.reachable) }
        /// The interface the first reachable target went out through; else the first target's;
        /// else the default route's (the internet check's way out).
        public var interface: ProbeInterface? { results.first { $0.reachable }?.interface ?? results.first?.interface ?? path?.interface }
    }

    /// One look. With `onInternetSettled` (a monitor's looks) and targets that decide the state
    /// themselves, the targets' verdict never waits for the internet check: a check that has not
    /// answered when they are judged goes on (`internetPending`), and `onInternetSettled` is
    /// called when it ends, for a look that shows what it found (`InternetLookout`). Without
    /// it (`probe`), or when the internet decides the state, the look waits for both.
    public func run(onInternetSettled: (@Sendable () -> Void)? = nil) async -> Snapshot {
        let endpoints = internetEndpoints
        guard let onInternetSettled, !endpoints.isEmpty, !internetRequired, !targets.isEmpty else {
            async let internet = endpoints.isEmpty ? nil : InternetCheck(prober: runner.prober).run(endpoints).0
            let results = await runner.probeAll(targets)
            let verdict = await internet
            return Snapshot(judging: results, internet: verdict, classifier: runner.prober.classifier, internetRequired: internetRequired)
        }
        let prober = runner.prober
        if let taken = lookout.begin({ await InternetCheck(prober: prober).run(endpoints).0 }) {
            let results = await runner.probeAll(targets)
            return Snapshot(judging: results, internet: taken, classifier: prober.classifier, internetRequired: internetRequired)
        }
        let results = await runner.probeAll(targets)
        let reading = lookout.end(onSettled: onInternetSettled)
        var snapshot = Snapshot(judging: results, internet: reading.verdict, classifier: prober.classifier, internetRequired: internetRequired)
        snapshot.internetPending = reading.pending
        return snapshot
    }

    /// The way out now, read from the routing table alone (a few syscalls, no packet): the
    /// interface the route to the address that answered in `snapshot` leaves by, and the
    /// default routes. What a route notification changes, known before a look has run.
    public func wayOut(after snapshot: Snapshot) -> (interface: ProbeInterface?, path: NetworkPath) {
        let routes = RouteCache(classifier: runner.prober.classifier)
        let path = NetworkPath.current(routes: routes)
        guard let answered = snapshot.results.first(where: \.reachable) ?? snapshot.results.first,
            let ip = answered.address
        else { return (path.interface, path) }
        let address = ResolvedAddress(family: ip.contains(":") ? 6 : 4, ip: ip, port: answered.port)
        return (routes.interface(to: address) ?? path.interface, path)
    }

    /// The default internet check endpoints (off the machine: tests pass their own).
    public static var defaultInternetEndpoints: [InternetEndpoint] { InternetEndpoint.defaults }
}
