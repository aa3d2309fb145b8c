import ConnCore
import Foundation
import Testing
@testable import ConnProbe

/// How one look's target results and internet verdict add up to the state every command reports.
@Suite("network state rules")
struct NetworkStateRulesTests {
    func result(_ target: String, _ verdict: String, address: String? = "192.0.2.1", interface: ProbeInterface? = nil) -> ProbeResult {
        ProbeResult(target: target, kind: "url", url: target, host: "x", port: 80, reachable: verdict == "reachable",
                    verdict: verdict, explanation: "", address: address, interface: interface,
                    rungs: [ProbeRung(name: "dns", ok: true, ms: 1, detail: "")], totalMs: 1)
    }

    func state(_ results: [ProbeResult], internet: InternetVerdict? = nil, offline: OfflineReason? = nil) -> NetworkState {
        ConnectivityCheck.Snapshot(results: results, internet: internet, offlineReason: offline).networkState
    }

    @Test("every target answers: online, with the interface and the families that answered")
    func online() {
        let wifi = ProbeInterface(name: "wlan0", kind: .wifi, expensive: false, sourceAddress: "192.0.2.9")
        let got = state([result("a", "reachable", interface: wifi), result("b", "reachable", address: "2001:db8::1", interface: wifi)])
        #expect(got == NetworkState(state: .online, interface: InterfaceSummary(name: "wlan0", kind: .wifi, expensive: false), ipv4: true, ipv6: true))
    }

    @Test("a target fails: serverUnreachable naming the first failing target and its verdict; ipv6 not tried is null")
    func failingTarget() {
        let got = state([result("http://a/health", "reachable"), result("http://b:1/", "refused"), result("c:2", "timeout")])
        #expect(got.state == .serverUnreachable && got.reason == .refused && got.failingTarget == "http://b:1/")
        #expect(got.ipv4 == true && got.ipv6 == nil && got.since == nil)
    }

    @Test("a sign-in page in place of the server is a portal, ahead of other failures")
    func serverPortal() {
        let got = state([result("b:1", "refused"), result("http://s/health", "portal")])
        #expect(got.state == .portal && got.reason == .portal && got.failingTarget == "http://s/health")
    }

    @Test("the internet check's portal counts unless every target answers; offline links win over all")
    func internetPortalAndOffline() {
        let portal = InternetVerdict(state: .portal(url: "http://check/"), explanation: "", ipv4: false, ipv6: nil)
        #expect(state([result("a", "timeout")], internet: portal).failingTarget == "http://check/")
        #expect(state([result("a", "timeout")], internet: portal).state == .portal)
        #expect(state([result("a", "reachable")], internet: portal).state == .online)
        let offline = state([result("a", "noRoute", address: nil)], offline: .noCarrier)
        #expect(offline.state == .offline && offline.reason == .noCarrier && offline.failingTarget == "a")
    }

    @Test("with no targets the internet decides; what it found is the reason")
    func internetOnly() {
        let limited = InternetVerdict(state: .limited, explanation: "", ipv4: false, ipv6: false)
        let got = state([], internet: limited)
        #expect(got == NetworkState(state: .serverUnreachable, reason: .limited, ipv4: false, ipv6: false))
        #expect(state([], internet: InternetVerdict(state: .online, explanation: "", ipv4: true, ipv6: nil)).state == .online)
    }

    @Test("JSON: every key present, null when absent")
    func json() throws {
        let text = try JSONOutput.encode(NetworkState(state: .online))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["schemaVersion", "state", "reason", "failingTarget", "since", "interface", "ipv4", "ipv6"])
        #expect(object["reason"] is NSNull && object["ipv6"] is NSNull)
    }
}
