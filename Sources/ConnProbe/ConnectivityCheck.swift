import ConnCore
import Foundation

/// One look at everything a monitor cares about — the targets, the internet check, the links —
/// for `conn watch` and the REPL, which re-run it on every change.
public struct ConnectivityCheck: Sendable {
    public let targets: [ProbeTarget]
    public let internetEndpoints: [InternetEndpoint]
    let runner: ProbeRunner

    public init(targets: [ProbeTarget], internetEndpoints: [InternetEndpoint], timeout: Duration, insecure: Bool, credentials: Credentials?, concurrency: Int = 32) {
        self.targets = targets
        self.internetEndpoints = internetEndpoints
        let prober = Prober(timeout: timeout, insecure: insecure, expectation: .init(), credentials: credentials)
        runner = ProbeRunner(prober: prober, concurrency: concurrency)
    }

    /// A monitor's check from the configuration: its credentials, and each look bounded by the
    /// configured timeout but never more than 5 s, so a dead network is noticed quickly.
    public init(targets: [ProbeTarget], internetEndpoints: [InternetEndpoint], configuration: ConnConfiguration) {
        self.init(targets: targets, internetEndpoints: internetEndpoints, timeout: min(configuration.timeout, .seconds(5)),
                  insecure: configuration.insecure, credentials: configuration.credentials)
    }

    public struct Snapshot: Sendable {
        public init(results: [ProbeResult], internet: InternetVerdict?, offlineReason: OfflineReason?) {
            self.results = results
            self.internet = internet
            self.offlineReason = offlineReason
        }

        public var results: [ProbeResult]
        public var internet: InternetVerdict?
        /// Set when every target failed and the links say why: the device itself is offline.
        public var offlineReason: OfflineReason?

        public var allTargetsReachable: Bool { results.allSatisfy(\.reachable) }
        /// The interface the first reachable target went out through.
        public var interface: ProbeInterface? { results.first { $0.reachable }?.interface ?? results.first?.interface }
    }

    public func run() async -> Snapshot {
        async let internet = internetEndpoints.isEmpty ? nil : InternetCheck(prober: runner.prober).run(internetEndpoints).0
        let results = await runner.probeAll(targets)
        let verdict = await internet
        return Snapshot(results: results, internet: verdict, offlineReason: Snapshot.offlineReason(results: results, internet: verdict))
    }

    /// The default internet check endpoints (off the machine: tests pass their own).
    public static var defaultInternetEndpoints: [InternetEndpoint] { InternetEndpoint.defaults }
}
