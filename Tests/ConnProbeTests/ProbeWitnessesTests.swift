import ConnCore
import ConnTestSupport
import Foundation
import Testing
@testable import ConnProbe

/// A report printed as it goes keeps only the results the verdict reads (`ProbeWitnesses`): the
/// verdict from them must be the verdict from all of them, whatever the mix.
@Suite("probe: the results a verdict reads")
struct ProbeWitnessesTests {
    static let verdicts = ["reachable"] + ReachabilityFailure.allCases.map(\.rawValue)

    func randomResult(_ index: Int, using random: inout SeededGenerator) -> ProbeResult {
        // Few kinds of each, so that runs of the same kind and every "all …" case come up.
        let verdict = Self.verdicts[Int(random.next() % UInt64(random.next() % 2 == 0 ? 3 : Self.verdicts.count))]
        let address: String? = [nil, "192.0.2.\(index % 250)", "2001:db8::\(index % 250)"][Int(random.next() % 3)]
        let host = ["example.test", "192.0.2.7", "[2001:db8::7]"][Int(random.next() % 3)]
        let interface = random.next() % 4 == 0 ? nil : ProbeInterface(name: "eth\(random.next() % 3)", kind: .ethernet, expensive: false, sourceAddress: "192.0.2.9")
        return ProbeResult(target: "t\(index)", kind: "url", url: nil, host: host, port: 80, reachable: verdict == "reachable",
                           verdict: verdict, explanation: "", address: address, interface: interface, rungs: [], totalMs: 1)
    }

    @Test("the state, the offline reason and the interface from the kept few equal those from every result (3,000 random runs)")
    func sameVerdict() {
        let seed = UInt64(Date().timeIntervalSince1970)
        var random = SeededGenerator(seed: seed)
        let internets: [InternetVerdict?] = [
            nil, InternetVerdict(state: .online, explanation: "", ipv4: true, ipv6: nil),
            InternetVerdict(state: .portal(url: "http://check/"), explanation: "", ipv4: false, ipv6: nil),
        ]
        for run in 0..<3_000 {
            let results = (0..<Int(random.next() % 12)).map { randomResult($0, using: &random) }
            var witnesses = ProbeWitnesses()
            for result in results { witnesses.add(result) }
            let internet = internets[run % internets.count]
            let required = run % 2 == 0
            typealias Snapshot = ConnectivityCheck.Snapshot
            let all = Snapshot(results: results, internet: internet, offlineReason: Snapshot.offlineReason(results: results, internet: internet),
                               internetRequired: required)
            let kept = Snapshot(results: witnesses.results, internet: internet,
                                offlineReason: Snapshot.offlineReason(results: witnesses.results, internet: internet), internetRequired: required)
            #expect(kept.networkState == all.networkState, "seed \(seed), run \(run): \(results.map(\.verdict))")
            #expect(kept.offlineReason == all.offlineReason, "seed \(seed), run \(run)")
            #expect(kept.interface == all.interface, "seed \(seed), run \(run)")
            #expect(witnesses.count == results.count && witnesses.results.count <= 11)
            if kept.networkState != all.networkState { return }
        }
    }
}
