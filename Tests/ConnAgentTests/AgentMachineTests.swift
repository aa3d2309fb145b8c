import ConnCore
import Foundation
import Testing
@testable import ConnAgent
@testable import ConnLive

/// The agent's rules without sockets, a printer or systemd: which lines, notifications, answers,
/// re-reads and stops each input leads to, in each phase.
@Suite("agent machine")
struct AgentMachineTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func machine(reloaded: Bool = false) -> AgentMachine {
        var machine = AgentMachine(status: AgentStatus(pid: 42, startedAt: now, databaseFile: "/data/conn.sqlite", server: "http://s"),
                                   reloaded: reloaded)
        _ = machine.handle(.ready(at: now))
        return machine
    }

    static func events(_ actions: [AgentMachine.Action]) -> [AgentEvent.Kind] {
        actions.compactMap { if case .emit(let event) = $0 { return event.type } else { return nil } }
    }

    static func notified(_ actions: [AgentMachine.Action]) -> [String] {
        actions.flatMap { if case .notify(let lines) = $0 { return lines } else { return [] } }
    }

    static func looked(_ type: WatchEvent.Kind, _ state: NetworkState) -> LiveSession.Event {
        let event = WatchEvent(type: type, at: now, from: type == .change ? .online : nil, state: state, downtimeMs: nil)
        return .looked(WatchEngine.Decision(event: event, recheckAfter: .seconds(30)), reported: state)
    }

    @Test("starting: ready is the started line and READY=1; after a re-read, the reloaded line")
    func start() {
        var machine = AgentMachine(status: AgentStatus(pid: 42, startedAt: Self.now, databaseFile: "/d", server: "http://s"), reloaded: false)
        #expect(machine.phase == .starting)
        #expect(machine.handle(.control(.status)) == [.answer(AgentMachine.stoppingAnswer)], "no answers before it runs")
        let actions = machine.handle(.ready(at: Self.now))
        #expect(machine.phase == .running)
        #expect(Self.events(actions) == [.started] && Self.notified(actions).first == "READY=1")
        var again = AgentMachine(status: machine.status, reloaded: true)
        #expect(Self.events(again.handle(.ready(at: Self.now))) == [.reloaded])
    }

    @Test("the session's events keep the status and are logged: baseline, change, path, link news only, outbox, sync that did something")
    func liveEvents() {
        var machine = Self.machine()
        let online = NetworkState(state: .online)
        let baseline = machine.handle(.live(Self.looked(.baseline, online), at: Self.now))
        #expect(Self.events(baseline) == [.baseline] && Self.notified(baseline) == ["STATUS=online — http://s"])
        #expect(machine.status.network == online)
        #expect(machine.handle(.live(.looked(WatchEngine.Decision(event: nil, recheckAfter: .seconds(30)), reported: online), at: Self.now)).isEmpty)
        let down = NetworkState(state: .serverUnreachable, reason: .refused, failingTarget: "http://s/health")
        #expect(Self.events(machine.handle(.live(Self.looked(.change, down), at: Self.now))) == [.change])
        #expect(machine.status.network == down)
        #expect(Self.events(machine.handle(.live(Self.looked(.path, down), at: Self.now))) == [.path])
        // The link: a state that is news is a line; a new offset alone is not.
        #expect(Self.events(machine.handle(.live(.link(.connected(backEndTimeOffsetMs: 3)), at: Self.now))) == [.connectionState])
        #expect(machine.handle(.live(.link(.connected(backEndTimeOffsetMs: 4)), at: Self.now)).isEmpty)
        #expect(machine.status.connectionState == .connected(backEndTimeOffsetMs: 4))
        // A sync that found nothing new is not a line; one that failed is, and is the last error.
        #expect(machine.handle(.live(.synced(InboxSyncResult(at: Self.now, ok: true, new: 0, updated: 0, notModified: true, error: nil)), at: Self.now)).isEmpty)
        let failed = InboxSyncResult(at: Self.now, ok: false, new: 0, updated: 0, notModified: false, error: "boom")
        #expect(Self.events(machine.handle(.live(.synced(failed), at: Self.now))) == [.sync])
        #expect(machine.status.lastError == "inbox sync: boom" && machine.status.lastSync == failed)
        // Every line carries the state as of now.
        let line = machine.handle(.live(.link(.disconnected(backEndTimeOffsetMs: 4, isInitializing: false)), at: Self.now))
        #expect(line == [.emit(AgentEvent(type: .connectionState, at: Self.now, state: down,
                                          connectionState: .disconnected(backEndTimeOffsetMs: 4, isInitializing: false)))])
    }

    @Test("control requests: status and wake answered while running and reloading; an unknown one named; stopping says so")
    func control() {
        var machine = Self.machine()
        #expect(machine.handle(.control(.status)) == [.answerStatus])
        #expect(machine.handle(.control(.wake(handingOver: ["a", "b"]))) == [.wake(["a", "b"]), .answer(#"{"ok":true}"#)])
        #expect(machine.handle(.control(nil)) == [.answer(#"{"error":"unknown request: ask status, wake or look"}"#)])
        #expect(machine.handle(.control(.look)) == [.look, .answer(#"{"ok":true}"#)])
        _ = machine.handle(.signal(SIGTERM, at: Self.now, monotonicMicroseconds: 1))
        #expect(machine.handle(.control(.status)) == [.answer(AgentMachine.stoppingAnswer)])
    }

    @Test("SIGHUP is a reload: RELOADING=1 with MONOTONIC_USEC and a re-read; taken, a hand-over with no STOPPING=1; refused, READY=1 again and the old configuration kept")
    func reload() {
        var machine = Self.machine()
        let hup = machine.handle(.signal(SIGHUP, at: Self.now, monotonicMicroseconds: 123_456))
        #expect(machine.phase == .reloading)
        #expect(hup == [.notify(["RELOADING=1", "MONOTONIC_USEC=123456", "STATUS=Reading the configuration again"]), .reread])
        #expect(machine.handle(.signal(SIGHUP, at: Self.now, monotonicMicroseconds: 2)).isEmpty, "one re-read at a time")
        let refused = machine.handle(.rereadRefused(reason: "broken YAML", warning: "SIGHUP: …", at: Self.now))
        #expect(machine.phase == .running && machine.status.lastError == "configuration not re-read: broken YAML")
        #expect(refused.first == .warn("SIGHUP: …") && Self.events(refused) == [.reloadFailed] && Self.notified(refused).first == "READY=1")

        _ = machine.handle(.signal(SIGHUP, at: Self.now, monotonicMicroseconds: 3))
        let taken = machine.handle(.rereadTaken)
        #expect(taken == [.handOver] && machine.status.lastError == nil)
        #expect(!Self.notified(hup + refused + taken).contains("STOPPING=1"))
    }

    @Test("SIGTERM and SIGINT stop: STOPPING=1, the parts stopped, then the stopped line naming the signal")
    func stop() {
        for (signal, name) in [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT")] {
            var machine = Self.machine()
            let actions = machine.handle(.signal(signal, at: Self.now, monotonicMicroseconds: 1))
            #expect(machine.phase == .stopping)
            #expect(actions == [.notify(["STOPPING=1", "STATUS=Stopping (\(name))"]), .stop(reason: name)])
            #expect(machine.handle(.live(.link(.connected(backEndTimeOffsetMs: 1)), at: Self.now)).isEmpty, "nothing more is taken in")
            let last = machine.handle(.partsStopped(at: Self.now))
            #expect(last == [.emit(AgentEvent(type: .stopped, at: Self.now, detail: name))])
        }
    }
}
