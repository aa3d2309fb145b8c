import ConnCore
@testable import ConnMetrics
import ConnProbe
import Foundation
import Testing

@Suite("the metrics exposition")
struct MetricsExpositionTests {
    /// A probe result as `conn probe --json` writes one (ProbeResult is made by the prober only).
    func result(target: String, reachable: Bool) -> ProbeResult {
        let object: [String: Any] = [
            "target": target, "kind": "url", "url": target, "host": "h", "port": 1, "reachable": reachable,
            "verdict": reachable ? "reachable" : "refused", "explanation": "", "totalMs": 1.5,
            "rungs": [["name": "tcp", "ok": reachable, "ms": 1.5, "detail": ""]],
        ]
        return try! JSONDecoder().decode(ProbeResult.self, from: JSONSerialization.data(withJSONObject: object))
    }

    @Test("a target's quotes, backslashes and newlines are escaped as the text format says; user:password never appears")
    func escaping() {
        var snapshot = MetricsSnapshot()
        snapshot.targets = [result(target: "http://a\"b\\c\nd.example/", reachable: false),
                            result(target: "https://ann:s3cret@api.example/health", reachable: true)]
        let text = MetricsExposition.render(snapshot, version: "0.2.0", commit: "abc", process: false)
        #expect(text.contains(#"conn_probe_success{target="http://a\"b\\c\nd.example/"} 0"#), "\(text)")
        #expect(!text.contains("s3cret") && !text.contains("ann:"), "\(text)")
        #expect(text.contains(#"conn_probe_duration_seconds{target="http://a\"b\\c\nd.example/",phase="tcp"} 0.0015"#))
    }

    @Test("every state is written, one at 1; changes count by from and to; the reason only while not online")
    func states() {
        var snapshot = MetricsSnapshot()
        snapshot.network = NetworkState(state: .portal, reason: .portal, failingTarget: nil)
        snapshot.changes[.init(from: .online, to: .portal)] = 2
        let text = MetricsExposition.render(snapshot, version: "0.2.0", commit: "abc", process: false)
        for state in NetworkStatus.allCases {
            #expect(text.contains(#"conn_connectivity_state{state="\#(state.rawValue)"} \#(state == .portal ? "1.0" : "0.0")"#), "\(text)")
        }
        #expect(text.contains(#"conn_connectivity_changes_total{from="online",to="portal"} 2"#))
        #expect(text.contains(#"conn_connectivity_reason_info{reason="portal"} 1.0"#))
        #expect(!MetricsExposition.render(MetricsSnapshot(), version: "0.2.0", commit: "abc", process: false).contains("reason_info"))
    }

    @Test("listen addresses: a port alone is loopback; all interfaces only when written; bad ones say why")
    func listenAddresses() throws {
        #expect(try ListenAddress.parse("9464") == ListenAddress(host: "127.0.0.1", port: 9464))
        #expect(try ListenAddress.parse(":9464") == ListenAddress(host: "127.0.0.1", port: 9464))
        #expect(try ListenAddress.parse("localhost:9464") == ListenAddress(host: "127.0.0.1", port: 9464))
        #expect(try ListenAddress.parse("0.0.0.0:9464") == ListenAddress(host: "0.0.0.0", port: 9464))
        #expect(try ListenAddress.parse("[::1]:9464") == ListenAddress(host: "::1", port: 9464))
        #expect(ListenAddress(host: "::1", port: 9464).description == "[::1]:9464")
        for bad in ["", "x", "0", "65536", "host.example:80", "[::1]", "[::1]9464", "1.2.3:80"] {
            #expect(throws: ListenAddressError.self, "\(bad)") { try ListenAddress.parse(bad) }
        }
    }
}
