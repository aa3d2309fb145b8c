import ConnCore
import Foundation
import Testing
@testable import ConnLive

/// The monitor's rules without its effects: which look, timer and link each input leads to.
@Suite("monitor machine")
struct MonitorMachineTests {
    static let online = WatchObservation(status: .online)
    static let refused = WatchObservation(status: .serverUnreachable, reason: .refused, failingTarget: "http://server/health")
    static let connected = ConnectionState.connected(backEndTimeOffsetMs: 12)
    static let connecting = ConnectionState.disconnected(backEndTimeOffsetMs: nil, isInitializing: true)
    static let dropped = ConnectionState.disconnected(backEndTimeOffsetMs: 12, isInitializing: false)

    static func machine(link: Bool = true, enabled: Bool = true) -> MonitorMachine {
        MonitorMachine(engine: WatchEngine(interval: .seconds(30), grace: .zero), hasLink: link, linkEnabled: enabled)
    }

    /// The events reported by a list of actions.
    static func reports(_ actions: [MonitorMachine.Action]) -> [ConnectivityMonitor.Event] {
        actions.compactMap { if case .report(let event) = $0 { event } else { nil } }
    }

    @Test("start: the link (when enabled) and a look; the look schedules the next and reports the baseline")
    func start() {
        var machine = Self.machine()
        #expect(machine.handle(.start) == [.startLink(generation: 1, lastOffset: nil, initializing: true), .look])
        let actions = machine.handle(.looked(Self.online, at: Date()))
        #expect(actions.first == .schedule(after: .seconds(30), generation: 1))
        #expect(Self.reports(actions).count == 1)
        guard case .looked(let decision, let reported) = Self.reports(actions).first else { Issue.record("no look reported"); return }
        #expect(decision.event?.type == .baseline && reported?.state == .online)

        var withoutLink = Self.machine(link: false)
        #expect(withoutLink.handle(.start) == [.look])
        var disabled = Self.machine(enabled: false)
        #expect(disabled.handle(.start) == [.look])
    }

    @Test("only the newest timer counts; kernel changes and refresh look at once")
    func timers() {
        var machine = Self.machine(link: false)
        _ = machine.handle(.start)
        _ = machine.handle(.looked(Self.online, at: Date()))  // timer 1
        _ = machine.handle(.refreshRequested)
        _ = machine.handle(.looked(Self.online, at: Date()))  // timer 2 replaces it
        #expect(machine.handle(.timerFired(generation: 1)) == [])
        #expect(machine.handle(.timerFired(generation: 2)) == [.look])
        #expect(machine.handle(.kernelChanged) == [.look])
        #expect(machine.handle(.refreshRequested) == [.look])
    }

    @Test("the link closing is a second signal: the failed look after it is reported at once, not a second later")
    func linkDropConfirms() {
        let start = Date()
        var machine = Self.machine()
        _ = machine.handle(.start)
        _ = machine.handle(.looked(Self.online, at: start))
        #expect(machine.handle(.linkState(Self.connecting, generation: 1)) == [.report(.link(Self.connecting))])
        #expect(machine.handle(.linkState(Self.connected, generation: 1)) == [.report(.link(Self.connected)), .look])
        _ = machine.handle(.looked(Self.online, at: start.addingTimeInterval(1)))
        #expect(machine.handle(.linkState(Self.dropped, generation: 1)) == [.report(.link(Self.dropped)), .look])
        let signalled = machine.handle(.looked(Self.refused, at: start.addingTimeInterval(2)))
        guard case .looked(let confirmed, _) = Self.reports(signalled).first else { Issue.record("no look reported"); return }
        #expect(confirmed.event?.to == .serverUnreachable && confirmed.event?.from == .online, "\(signalled)")
        // The closed socket counts once: after a recovery, a failed look is an ordinary one again.
        _ = machine.handle(.looked(Self.online, at: start.addingTimeInterval(3)))
        let ordinary = machine.handle(.looked(Self.refused, at: start.addingTimeInterval(4)))
        #expect(ordinary.first == .schedule(after: .seconds(1), generation: 5), "\(ordinary)")
        guard case .looked(let unconfirmed, _) = Self.reports(ordinary).first else { Issue.record("no look reported"); return }
        #expect(unconfirmed.event == nil)

        // Without the closed socket the same observation waits a second for its second look.

        var unsignalled = Self.machine()
        _ = unsignalled.handle(.start)
        _ = unsignalled.handle(.looked(Self.online, at: start))
        guard case .looked(let first, _) = Self.reports(unsignalled.handle(.looked(Self.refused, at: start.addingTimeInterval(2)))).first else {
            Issue.record("no look reported"); return
        }
        #expect(first.event == nil && first.recheckAfter == .seconds(1))
    }

    @Test("the server back while the link is down: the link restarts at once, with a new generation whose states count")
    func reconnectOnRecovery() {
        let start = Date()
        var machine = Self.machine()
        _ = machine.handle(.start)
        _ = machine.handle(.looked(Self.online, at: start))
        _ = machine.handle(.linkState(Self.connected, generation: 1))
        _ = machine.handle(.looked(Self.online, at: start))
        _ = machine.handle(.linkState(Self.dropped, generation: 1))
        let down = Self.reports(machine.handle(.looked(Self.refused, at: start.addingTimeInterval(1))))
        guard case .looked(let confirmed, _) = down.first else { Issue.record("no look reported"); return }
        #expect(confirmed.event?.to == .serverUnreachable, "\(confirmed)")
        let back = machine.handle(.looked(Self.online, at: start.addingTimeInterval(5)))
        // A reconnect, not a re-enable: not initializing; the offset last seen goes with it.
        #expect(back.contains(.startLink(generation: 2, lastOffset: 12, initializing: false)), "\(back)")
        // The old link's late states are dropped; the new one's are reported.
        #expect(machine.handle(.linkState(Self.connected, generation: 1)) == [])
        #expect(machine.handle(.linkState(Self.connecting, generation: 2)) == [.report(.link(Self.connecting))])
    }

    @Test("disabling the link stops it and drops its states; enabling starts a new one, initializing, from the offset last seen; a monitor without a link ignores both")
    func enableAndDisable() {
        var machine = Self.machine()
        _ = machine.handle(.start)
        _ = machine.handle(.linkState(Self.connected, generation: 1))
        #expect(machine.handle(.enableLink(true)) == [])
        #expect(machine.handle(.enableLink(false)) == [.stopLink, .report(.linkEnabled(false))])
        #expect(machine.handle(.linkState(Self.connected, generation: 1)) == [])
        #expect(machine.handle(.linkState(Self.connected, generation: 2)) == [])
        #expect(machine.handle(.enableLink(true)) == [.startLink(generation: 3, lastOffset: 12, initializing: true), .report(.linkEnabled(true))])
        #expect(machine.handle(.linkState(Self.connecting, generation: 3)) == [.report(.link(Self.connecting))])

        var withoutLink = Self.machine(link: false)
        #expect(withoutLink.handle(.enableLink(true)) == [])
        #expect(withoutLink.handle(.enableLink(false)) == [])
    }

    @Test("offline, a link that still reads connected is reported disconnected (offset kept) and restarted")
    func offlineDropsTheLink() {
        let start = Date()
        var machine = Self.machine()
        _ = machine.handle(.start)
        _ = machine.handle(.looked(Self.online, at: start))
        _ = machine.handle(.linkState(Self.connected, generation: 1))
        let offline = WatchObservation(status: .offline, reason: .noCarrier, definitive: true)
        // Offline is certain: reported on its first look, and the link dropped before that report.
        let confirmed = machine.handle(.looked(offline, at: start.addingTimeInterval(1)))
        let dropAt = confirmed.firstIndex(of: .report(.link(Self.dropped)))
        let lookAt = confirmed.firstIndex { if case .report(.looked) = $0 { true } else { false } }
        #expect(dropAt != nil && lookAt != nil && dropAt! < lookAt!, "\(confirmed)")
        guard case .report(.looked(let decision, _)) = confirmed[lookAt ?? 0] else { Issue.record("no look reported"); return }
        #expect(decision.event?.to == .offline)
        #expect(confirmed.contains(.startLink(generation: 2, lastOffset: 12, initializing: false)), "\(confirmed)")
        // Still offline: said once.
        #expect(!machine.handle(.looked(offline, at: start.addingTimeInterval(2))).contains(.report(.link(Self.dropped))))
    }

    @Test("the link up while the state is not online: no 'connected' before the look it asks for has been reported; then after it")
    func noConnectedWhileOffline() {
        let start = Date()
        var machine = Self.machine()
        _ = machine.handle(.start)
        let offline = WatchObservation(status: .offline, reason: .noCarrier, definitive: true)
        _ = machine.handle(.looked(offline, at: start))
        // The socket opened (the network is back): look first, tell nobody yet (but delivery
        // hears that the server answered).
        #expect(machine.handle(.linkState(Self.connected, generation: 1)) == [.report(.serverAnswered), .look])
        // A newer offset while held: still nothing, and no second look.
        let newer = ConnectionState.connected(backEndTimeOffsetMs: 13)
        #expect(machine.handle(.linkState(newer, generation: 1)) == [])
        // The look: the state's change first, then the link.
        let back = machine.handle(.looked(Self.online, at: start.addingTimeInterval(1)))
        let reports = Self.reports(back)
        guard case .looked(let decision, _) = reports.first else { Issue.record("no look reported: \(back)"); return }
        #expect(decision.event?.to == .online)
        #expect(reports.last == .link(newer), "\(back)")
        // Online now: link states are told at once again.
        #expect(machine.handle(.linkState(Self.dropped, generation: 1)).first == .report(.link(Self.dropped)))
    }

    @Test("held, then dropped before the look: the look reports no 'connected'")
    func heldThenDropped() {
        let start = Date()
        var machine = Self.machine()
        _ = machine.handle(.start)
        _ = machine.handle(.looked(Self.refused, at: start))
        #expect(machine.handle(.linkState(Self.connected, generation: 1)) == [.report(.serverAnswered), .look])
        #expect(machine.handle(.linkState(Self.dropped, generation: 1)).first == .report(.link(Self.dropped)))
        #expect(!Self.reports(machine.handle(.looked(Self.refused, at: start.addingTimeInterval(1)))).contains(.link(Self.connected)))
    }
}
