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

    func state(_ results: [ProbeResult], internet: InternetVerdict? = nil, offline: OfflineReason? = nil, path: NetworkPath? = nil,
               internetRequired: Bool = false) -> NetworkState {
        ConnectivityCheck.Snapshot(results: results, internet: internet, offlineReason: offline, path: path, internetRequired: internetRequired).networkState
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

    @Test("the internet check decides when required: dnsBroken or limited is not online, in the state as in the reason; not required, the targets decide")
    func internetRequired() {
        let dnsBroken = InternetVerdict(state: .dnsBroken, explanation: "", ipv4: true, ipv6: nil)
        let limited = InternetVerdict(state: .limited, explanation: "", ipv4: false, ipv6: nil)
        // probe --internet alone, DNS broken: the JSON state must say what the text says.
        #expect(state([], internet: dnsBroken, internetRequired: true) == NetworkState(state: .serverUnreachable, reason: .dnsBroken, ipv4: true))
        #expect(state([], internet: dnsBroken) == NetworkState(state: .serverUnreachable, reason: .dnsBroken, ipv4: true))
        #expect(state([result("a", "reachable")], internet: limited, internetRequired: true).reason == .limited)
        #expect(state([result("a", "reachable")], internet: limited, internetRequired: true).state == .serverUnreachable)
        #expect(state([result("a", "reachable")], internet: limited).state == .online)
        // Required, a portal is a portal even when the targets answer.
        let portal = InternetVerdict(state: .portal(url: "http://check/"), explanation: "", ipv4: true, ipv6: nil)
        #expect(state([result("a", "reachable")], internet: portal, internetRequired: true).state == .portal)
        // A failing target still names itself first.
        #expect(state([result("a", "refused")], internet: limited, internetRequired: true).reason == .refused)
    }

    @Test("the path: a family with no route is false, not unknown; with no target the default route names the interface")
    func path() {
        let eth = ProbeInterface(name: "eth0", kind: .ethernet, expensive: false, sourceAddress: "fd00::2")
        let v6Only = NetworkPath(interface: eth, ipv4Route: false, ipv6Route: true)
        let online = InternetVerdict(state: .online, explanation: "", ipv4: nil, ipv6: true)
        let got = state([], internet: online, path: v6Only, internetRequired: true)
        #expect(got == NetworkState(state: .online, interface: InterfaceSummary(name: "eth0", kind: .ethernet, expensive: false), ipv4: false, ipv6: true))
        // Routed but not tried: still unknown.
        #expect(state([result("a", "reachable")], path: NetworkPath(interface: nil, ipv4Route: true, ipv6Route: true)).ipv6 == nil)
        // A target's own interface comes before the default route's.
        let wifi = ProbeInterface(name: "wlan0", kind: .wifi, expensive: false, sourceAddress: "192.0.2.9")
        #expect(state([result("a", "reachable", interface: wifi)], path: v6Only).interface?.name == "wlan0")
    }

    @Test("nothing answered and the links say why: offline with that reason, not limited or dnsBroken; anything answered keeps the verdict")
    func linksRefineTheInternetVerdict() {
        let limited = InternetVerdict(state: .limited, explanation: "", ipv4: false, ipv6: nil)
        let refined = InternetCheck.refine(limited, linksSay: .noInterface)
        #expect(refined.state == .offline(.noInterface))
        #expect(InternetCheck.refine(InternetVerdict(state: .dnsBroken, explanation: "", ipv4: nil, ipv6: nil), linksSay: .noCarrier).state == .offline(.noCarrier))
        #expect(InternetCheck.refine(limited, linksSay: .noRoute).state == .limited)
        #expect(InternetCheck.refine(InternetVerdict(state: .offline(.noRoute), explanation: "", ipv4: false, ipv6: nil), linksSay: .noAddress).state == .offline(.noAddress))
        let answered = InternetVerdict(state: .dnsBroken, explanation: "", ipv4: true, ipv6: nil)
        #expect(InternetCheck.refine(answered, linksSay: .noInterface).state == .dnsBroken)
        let portal = InternetVerdict(state: .portal(url: "http://x/"), explanation: "", ipv4: false, ipv6: nil)
        #expect(InternetCheck.refine(portal, linksSay: .noInterface).state == portal.state)
    }

    @Test("a target that answered (refused) proves the way works: never offline from the links, whatever they say")
    func answeredIsNotOffline() {
        let refused = result("127.0.0.1:9", "refused", address: "127.0.0.1")
        #expect(ConnectivityCheck.Snapshot.offlineReason(results: [refused], internet: nil) == nil)
        #expect(state([refused]).state == .serverUnreachable && state([refused]).reason == .refused)
    }

    @Test("JSON: every key present, null when absent")
    func json() throws {
        let text = try JSONOutput.encode(NetworkState(state: .online))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["schemaVersion", "state", "reason", "failingTarget", "since", "interface", "ipv4", "ipv6"])
        #expect(object["reason"] is NSNull && object["ipv6"] is NSNull)
    }
}
