import ConnCommandKit
import ConnCore
@testable import ConnProbe
import Foundation
import Testing
@testable import ConnLive

/// The hysteresis rules of `conn watch`, as a pure state machine.
@Suite("watch engine")
struct WatchEngineTests {
    static let online = WatchObservation(status: .online)
    static let refused = WatchObservation(status: .serverUnreachable, reason: .refused, failingTarget: "http://server/health")
    static let noCarrier = WatchObservation(status: .offline, reason: .noCarrier, definitive: true)

    @Test("the first observation is a baseline; the same state again is no event")
    func baseline() {
        var engine = WatchEngine(interval: .seconds(30), grace: .zero)
        let start = Date()
        let first = engine.observe(Self.online, at: start)
        #expect(first.event?.type == .baseline && first.event?.to == .online && first.event?.from == nil)
        #expect(first.recheckAfter == .seconds(30))
        #expect(engine.observe(Self.online, at: start.addingTimeInterval(30)).event == nil)
    }

    @Test("a remote failure needs a second look a second later; recovery is reported at once with the downtime")
    func confirmation() {
        var engine = WatchEngine(interval: .seconds(30), grace: .zero)
        let start = Date()
        _ = engine.observe(Self.online, at: start)
        let first = engine.observe(Self.refused, at: start.addingTimeInterval(1))
        #expect(first.event == nil && first.recheckAfter == .seconds(1))
        let second = engine.observe(Self.refused, at: start.addingTimeInterval(2))
        #expect(second.event?.type == .change && second.event?.from == .online && second.event?.to == .serverUnreachable)
        #expect(second.event?.state?.reason == .refused && second.event?.state?.failingTarget == "http://server/health")
        // While down: no repeated lines; rechecks back off from 1 s.
        #expect(engine.observe(Self.refused, at: start.addingTimeInterval(3)).event == nil)
        let back = engine.observe(Self.online, at: start.addingTimeInterval(5))
        #expect(back.event?.to == .online && back.event?.downtimeMs == 4000)
    }

    @Test("a definitive cause is reported on its first look; a remote failure still waits for its second")
    func definitive() {
        var engine = WatchEngine(interval: .seconds(30), grace: .zero)
        let start = Date()
        _ = engine.observe(Self.online, at: start)
        let first = engine.observe(Self.noCarrier, at: start.addingTimeInterval(1))
        #expect(first.event?.type == .change && first.event?.from == .online && first.event?.to == .offline)
        #expect(first.event?.state?.reason == .noCarrier && first.event?.state?.since == start.addingTimeInterval(1))
        #expect(first.recheckAfter == .seconds(1))
        // The same state again: no second line.
        #expect(engine.observe(Self.noCarrier, at: start.addingTimeInterval(2)).event == nil)
        // From offline to a remote failure: that one needs its second look.
        let remote = engine.observe(Self.refused, at: start.addingTimeInterval(3))
        #expect(remote.event == nil && remote.recheckAfter == .seconds(1))
        #expect(engine.observe(Self.refused, at: start.addingTimeInterval(4)).event?.to == .serverUnreachable)
    }

    @Test("a flap shorter than the grace period gives no event")
    func grace() {
        var engine = WatchEngine(interval: .seconds(30), grace: .seconds(2))
        let start = Date()
        _ = engine.observe(Self.online, at: start)
        let first = engine.observe(Self.noCarrier, at: start)
        #expect(first.event == nil && first.recheckAfter == .seconds(2))
        #expect(engine.observe(Self.noCarrier, at: start.addingTimeInterval(0.5)).event == nil)
        #expect(engine.observe(Self.online, at: start.addingTimeInterval(1)).event == nil)
        #expect(engine.reported?.state == .online)
        // A failure that lasts past the grace period is reported.
        _ = engine.observe(Self.noCarrier, at: start.addingTimeInterval(10))
        #expect(engine.observe(Self.noCarrier, at: start.addingTimeInterval(12.1)).event?.to == .offline)
    }

    static func online(via name: String, _ kind: InterfaceKind, ipv6Route: Bool = false) -> WatchObservation {
        var observation = Self.online
        observation.state.interface = InterfaceSummary(name: name, kind: kind, expensive: kind.isExpensive)
        observation.path = NetworkPath(interface: ProbeInterface(name: name, kind: kind, expensive: kind.isExpensive, sourceAddress: "192.0.2.2"),
                                       ipv4Route: true, ipv6Route: ipv6Route)
        return observation
    }

    @Test("the way out is state: another interface or a default route gained while online is a path event, once; the same path again is none")
    func pathChanges() {
        var engine = WatchEngine(interval: .seconds(30), grace: .zero)
        let start = Date()
        #expect(engine.observe(Self.online(via: "eth0", .ethernet), at: start).event?.type == .baseline)
        #expect(engine.observe(Self.online(via: "eth0", .ethernet), at: start.addingTimeInterval(1)).event == nil)
        // The default route moved to a cellular modem: the server still answers.
        let moved = engine.observe(Self.online(via: "wwan0", .wwan), at: start.addingTimeInterval(2))
        #expect(moved.event?.type == .path && moved.event?.to == .online && moved.event?.from == nil)
        #expect(moved.event?.state?.interface == InterfaceSummary(name: "wwan0", kind: .wwan, expensive: true))
        #expect(moved.recheckAfter == .seconds(30))
        #expect(engine.observe(Self.online(via: "wwan0", .wwan), at: start.addingTimeInterval(3)).event == nil)
        // IPv6 gained a default route on the same interface.
        #expect(engine.observe(Self.online(via: "wwan0", .wwan, ipv6Route: true), at: start.addingTimeInterval(4)).event?.type == .path)
        // A change of state carries the new path itself: no path event after it.
        let down = engine.observe(Self.noCarrier, at: start.addingTimeInterval(5))
        #expect(down.event?.type == .change)
        #expect(engine.observe(Self.noCarrier, at: start.addingTimeInterval(6)).event == nil)
    }

    @Test("the way out from the routing table alone (a route notification): a path event at once while online, none again when the look confirms it; nothing while not online")
    func wayOutBeforeTheLook() {
        var engine = WatchEngine(interval: .seconds(30), grace: .zero)
        let start = Date()
        let eth = Self.online(via: "eth0", .ethernet), wwan = Self.online(via: "wwan0", .wwan)
        #expect(engine.observeWayOut(interface: wwan.state.interface, path: wwan.path!, at: start) == nil, "no baseline yet")
        _ = engine.observe(eth, at: start)
        #expect(engine.observeWayOut(interface: eth.state.interface, path: eth.path!, at: start) == nil, "the same way out")
        let moved = engine.observeWayOut(interface: wwan.state.interface, path: wwan.path!, at: start.addingTimeInterval(1))
        #expect(moved?.type == .path && moved?.to == .online && moved?.state?.interface?.name == "wwan0")
        #expect(moved?.state?.ipv6 == false, "no IPv6 default route: false")
        #expect(engine.reported?.interface?.name == "wwan0")
        // The look that follows sees the same way out: no second event.
        #expect(engine.observe(wwan, at: start.addingTimeInterval(1.01)).event == nil)
        // Not online: the look decides.
        _ = engine.observe(Self.noCarrier, at: start.addingTimeInterval(2))
        #expect(engine.observeWayOut(interface: eth.state.interface, path: eth.path!, at: start.addingTimeInterval(3)) == nil)
    }

    @Test("property: random observation sequences never report two changes in a row to the same state")
    func noRepeats() {
        var generator = SystemRandomNumberGenerator()
        let choices = [Self.online, Self.refused, Self.noCarrier, Self.online(via: "eth0", .ethernet), Self.online(via: "wwan0", .wwan)]
        for _ in 0..<200 {
            var engine = WatchEngine(interval: .seconds(30), grace: .milliseconds(Int64.random(in: 0...3000, using: &generator)))
            var time = Date()
            var last: NetworkStatus?
            for _ in 0..<50 {
                time = time.addingTimeInterval(Double.random(in: 0...2, using: &generator))
                if let event = engine.observe(choices.randomElement(using: &generator)!, at: time).event {
                    // A path event keeps the state; every other event changes it.
                    if event.type == .path {
                        #expect(event.to == last)
                        continue
                    }
                    #expect(event.to != last)
                    if event.type == .change { #expect(event.from == last) }
                    last = event.to
                }
            }
        }
    }
}

/// `since` in every event: when the state began, not when it was confirmed.
@Suite("watch engine since")
struct WatchEngineSinceTests {
    @Test("a failure's since is its first look; a recovery's is the look that saw it; same-state looks keep it")
    func since() {
        var engine = WatchEngine(interval: .seconds(30), grace: .zero)
        let start = Date(timeIntervalSince1970: 1_000_000)
        #expect(engine.observe(WatchEngineTests.online, at: start).event?.state?.since == start)
        _ = engine.observe(WatchEngineTests.refused, at: start.addingTimeInterval(5))
        let confirmed = engine.observe(WatchEngineTests.refused, at: start.addingTimeInterval(6))
        #expect(confirmed.event?.state?.since == start.addingTimeInterval(5))
        _ = engine.observe(WatchEngineTests.refused, at: start.addingTimeInterval(8))
        #expect(engine.reported?.since == start.addingTimeInterval(5))
        let back = engine.observe(WatchEngineTests.online, at: start.addingTimeInterval(9))
        #expect(back.event?.state?.since == start.addingTimeInterval(9) && back.event?.downtimeMs == 4000)
    }
}

/// What the watch says of the internet check, which never holds the targets' verdict: pending
/// at first, its verdict as an `internet` event when it comes, then only when it changes.
@Suite("watch engine: the internet check")
struct WatchEngineInternetTests {
    static func look(_ status: NetworkStatus, _ internet: InternetReading?) -> WatchObservation {
        var observation = status == .online ? WatchObservation(status: .online)
            : WatchObservation(status: status, reason: .refused, failingTarget: "http://server/health", definitive: true)
        observation.internet = internet
        return observation
    }
    static let limited = InternetReading.settled(InternetVerdict(state: .limited, explanation: "a route exists, but the internet does not answer", ipv4: false, ipv6: nil))
    static let online = InternetReading.settled(InternetVerdict(state: .online, explanation: "the check endpoints answer as expected", ipv4: true, ipv6: nil))

    @Test("baseline says pending; the verdict that follows is an internet event with the state unchanged; the same verdict again, or a pending recheck, is no event; a new verdict is one")
    func pendingThenSettled() throws {
        var engine = WatchEngine(interval: .seconds(30), grace: .zero)
        let start = Date()
        let baseline = engine.observe(Self.look(.online, .pending), at: start)
        #expect(baseline.event?.type == .baseline && baseline.event?.internet == .pending)
        let settled = try #require(engine.observe(Self.look(.online, Self.limited), at: start.addingTimeInterval(5)).event)
        #expect(settled.type == .internet && settled.to == .online && settled.from == nil && settled.internet == Self.limited)
        #expect(engine.observe(Self.look(.online, Self.limited), at: start.addingTimeInterval(35)).event == nil)
        #expect(engine.observe(Self.look(.online, .pending), at: start.addingTimeInterval(65)).event == nil)
        #expect(engine.observe(Self.look(.online, nil), at: start.addingTimeInterval(66)).event == nil)
        #expect(engine.internet == Self.limited)
        let back = try #require(engine.observe(Self.look(.online, Self.online), at: start.addingTimeInterval(70)).event)
        #expect(back.type == .internet && back.internet == Self.online)
    }

    @Test("a change of state carries the last verdict (a pending recheck does not hide it); with a new verdict on the same look, the change carries that and no second event is made")
    func changesCarryTheReading() throws {
        var engine = WatchEngine(interval: .seconds(30), grace: .zero)
        let start = Date()
        _ = engine.observe(Self.look(.online, Self.limited), at: start)
        let down = try #require(engine.observe(Self.look(.serverUnreachable, .pending), at: start.addingTimeInterval(1)).event)
        #expect(down.type == .change && down.to == .serverUnreachable && down.internet == Self.limited)
        let up = try #require(engine.observe(Self.look(.online, Self.online), at: start.addingTimeInterval(2)).event)
        #expect(up.type == .change && up.to == .online && up.internet == Self.online)
    }

    @Test("no internet check: every event says null")
    func noCheck() throws {
        var engine = WatchEngine(interval: .seconds(30), grace: .zero)
        let baseline = try #require(engine.observe(Self.look(.online, nil), at: Date()).event)
        #expect(baseline.internet == nil)
        let encoded = String(decoding: try JSONEncoder().encode(baseline), as: UTF8.self)
        #expect(encoded.contains(#""internet":null"#), "\(encoded)")
    }

    @Test("JSON: pending has the verdict's keys with state pending; the text line names the state and why, sanitised")
    func shapes() throws {
        let pending = String(decoding: try JSONEncoder().encode(InternetReading.pending), as: UTF8.self)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(pending.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["state", "reason", "portalURL", "explanation", "ipv4", "ipv6"] && object["state"] as? String == "pending", "\(pending)")
        var event = WatchEvent(type: .internet, at: Date(), state: NetworkState(state: .online), connectionState: nil)
        event.internet = .settled(InternetVerdict(state: .portal(url: "http://x/\u{1b}[2J"), explanation: "a page \u{1b}]0;EVIL\u{07} answered", ipv4: true, ipv6: nil))
        let line = event.renderText(style: TextStyle(enabled: false))
        #expect(line.contains("internet: portal: a page") && !line.contains("\u{1b}") && !line.contains("\u{07}"), "\(line)")
        #expect(event.environment["CONN_EVENT_INTERNET"] == "portal")
    }
}
