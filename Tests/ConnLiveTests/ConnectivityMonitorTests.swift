import ConnCore
import Foundation
import Synchronization
import Testing
@testable import ConnLive
@testable import ConnProbe

/// The monitor's driver in-process, over an injected source: looks that answer when the test
/// says, and the kernel's bursts as the test sends them (no sockets, no network).
@Suite("connectivity monitor driver")
struct ConnectivityMonitorTests {
    /// Looks the test answers one by one, in the order they were started.
    final class Looks: Sendable {
        /// Each look started, its continuation until answered.
        private let pending = Mutex<[CheckedContinuation<ConnectivityCheck.Snapshot, Never>?]>([])
        var started: Int { pending.withLock { $0.count } }

        func look() async -> ConnectivityCheck.Snapshot {
            await withCheckedContinuation { continuation in pending.withLock { $0.append(continuation) } }
        }

        /// Answers the look started `index`-th (from 0), once it has started.
        func answer(_ index: Int, with snapshot: ConnectivityCheck.Snapshot) async {
            _ = await ConnectivityMonitorTests.poll(for: 60) { self.started > index ? true : nil }
            let continuation = pending.withLock { list -> CheckedContinuation<ConnectivityCheck.Snapshot, Never>? in
                guard list.count > index else { return nil }
                defer { list[index] = nil }
                return list[index]
            }
            continuation?.resume(returning: snapshot)
        }

        /// Answers every look still waiting, so none is left hanging when a test ends.
        func finish(with snapshot: ConnectivityCheck.Snapshot) {
            let waiting = pending.withLock { list in
                defer { list = list.map { _ in nil } }
                return list.compactMap { $0 }
            }
            waiting.forEach { $0.resume(returning: snapshot) }
        }
    }

    final class Events: Sendable {
        let list = Mutex<[ConnectivityMonitor.Event]>([])
        func append(_ event: ConnectivityMonitor.Event) { list.withLock { $0.append(event) } }
        func first<Value: Sendable>(_ pick: @escaping @Sendable (ConnectivityMonitor.Event) -> Value?) async -> Value? {
            await poll(for: 60) { self.list.withLock { $0.compactMap(pick).first } }
        }
        var looks: [WatchEvent] {
            list.withLock { $0.compactMap { if case .looked(let decision, _) = $0 { decision.event } else { nil } } }
        }
    }

    static func poll<Value>(for seconds: Double, _ probe: () -> Value?) async -> Value? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let value = probe() { return value }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return probe()
    }

    static func interface(_ name: String, _ kind: InterfaceKind) -> ProbeInterface {
        ProbeInterface(name: name, kind: kind, expensive: kind.isExpensive, sourceAddress: "192.0.2.2")
    }

    static func snapshot(_ verdict: String, via name: String = "eth0", _ kind: InterfaceKind = .ethernet) -> ConnectivityCheck.Snapshot {
        let result = ProbeResult(target: "http://192.0.2.9/health", kind: "server", url: "http://192.0.2.9/health", host: "192.0.2.9", port: 80,
                                 reachable: verdict == "reachable", verdict: verdict, explanation: "", address: "192.0.2.9",
                                 interface: interface(name, kind), rungs: [], totalMs: 1)
        let path = NetworkPath(interface: interface(name, kind), ipv4Route: true, ipv6Route: false)
        return ConnectivityCheck.Snapshot(results: [result], internet: nil, offlineReason: verdict == "noCarrier" ? .noCarrier : nil,
                                          path: path, internetRequired: false)
    }

    func monitor(_ looks: Looks, kernel: AsyncStream<NetlinkMonitor.Event>, wayOut: @escaping @Sendable (ConnectivityCheck.Snapshot) -> (interface: ProbeInterface?, path: NetworkPath) = { ($0.path?.interface, $0.path!) },
                 events: Events) -> ConnectivityMonitor {
        let source = MonitorSource(look: { await looks.look() }, wayOut: wayOut, kernelEvents: kernel)
        return ConnectivityMonitor(source: source, engine: WatchEngine(interval: .seconds(3600), grace: .zero), link: nil) { events.append($0) }
    }

    @Test("a kernel change while a look runs starts a new look at once; the old look's answer, when it comes, is dropped")
    func kernelChangeSupersedesALook() async throws {
        let looks = Looks(), events = Events()
        let (kernel, burst) = AsyncStream<NetlinkMonitor.Event>.makeStream()
        let monitor = monitor(looks, kernel: kernel, events: events)
        defer { monitor.stop() }
        _ = await Self.poll(for: 60) { looks.started == 1 ? true : nil }
        // The carrier goes while the first look waits (for TCP, say).
        burst.yield(.changed(kinds: ["link"]))
        #expect(await Self.poll(for: 60) { looks.started == 2 ? true : nil } == true, "a second look started")
        await looks.answer(1, with: Self.snapshot("noCarrier"))
        let first = await events.first { event -> WatchEvent? in
            if case .looked(let decision, _) = event { return decision.event } else { return nil }
        }
        #expect(first?.type == .baseline && first?.to == .offline && first?.state?.reason == .noCarrier)
        // The first look answers late, from before the change: it must not be reported.
        await looks.answer(0, with: Self.snapshot("reachable", via: "stale0"))
        // The marker that its moment has passed: a look after it, whose own answer is news (online
        // via wwan0). Events come in order: had the late answer been reported, its change (via
        // stale0) would be the one seen here.
        burst.yield(.changed(kinds: ["link"]))
        // Every look waiting gets the marker's answer, again until its change is reported: the
        // newest look is the one that counts, and the recheck timer's or the burst's may start
        // after an answer was given (a loaded run saw the burst's come later).
        let back = await Self.poll(for: 60) { () -> WatchEvent? in
            looks.finish(with: Self.snapshot("reachable", via: "wwan0", .wwan))
            return events.looks.first { $0.type == .change }
        }
        #expect(back?.to == .online && back?.state?.interface?.name == "wwan0", "\(String(describing: back))")
        #expect(events.looks.count == 2, "\(events.looks)")
    }

    @Test("only routes changed: the path event comes from the routing table before the look that follows has answered")
    func routesOnlyPathFirst() async throws {
        let looks = Looks(), events = Events()
        let (kernel, burst) = AsyncStream<NetlinkMonitor.Event>.makeStream()
        let moved = Mutex(false)
        let monitor = monitor(looks, kernel: kernel, wayOut: { snapshot in
            moved.withLock { $0 } ? (Self.interface("wwan0", .wwan), NetworkPath(interface: Self.interface("wwan0", .wwan), ipv4Route: true, ipv6Route: false))
                : (snapshot.path?.interface, snapshot.path!)
        }, events: events)
        defer { monitor.stop() }
        await looks.answer(0, with: Self.snapshot("reachable"))
        #expect(await events.first { if case .looked(let decision, _) = $0, decision.event?.type == .baseline { true } else { nil } } == true)
        moved.withLock { $0 = true }
        burst.yield(.changed(kinds: ["route"]))
        let path = await events.first { event -> WatchEvent? in
            if case .path(let event, _) = event { return event } else { return nil }
        }
        #expect(path?.type == .path && path?.state?.interface?.name == "wwan0" && path?.state?.interface?.expensive == true)
        // The burst also starts a look; the path came without it (it is answered only below).
        #expect(await Self.poll(for: 60) { looks.started == 2 ? true : nil } == true)
        await looks.answer(1, with: Self.snapshot("reachable", via: "wwan0", .wwan))
        // The marker: a later look whose answer is news (the carrier gone); a second event for the
        // confirming look would come before it.
        burst.yield(.changed(kinds: ["link"]))
        _ = await Self.poll(for: 60) { () -> WatchEvent? in
            looks.finish(with: Self.snapshot("noCarrier", via: "wwan0", .wwan))
            return events.looks.first { $0.to == .offline }
        }
        #expect(events.looks.map(\.type) == [.baseline, .change], "the look confirms the path, no second event: \(events.looks)")
    }

    @Test("lost notifications (ENOBUFS) are reported and followed by a look")
    func overrun() async throws {
        let looks = Looks(), events = Events()
        let (kernel, burst) = AsyncStream<NetlinkMonitor.Event>.makeStream()
        let monitor = monitor(looks, kernel: kernel, events: events)
        defer { monitor.stop() }
        await looks.answer(0, with: Self.snapshot("reachable"))
        _ = await events.first { if case .looked = $0 { true } else { nil } }
        burst.yield(.overrun)
        #expect(await events.first { if case .kernelNotificationsLost = $0 { true } else { nil } } == true)
        #expect(await Self.poll(for: 60) { looks.started == 2 ? true : nil } == true, "the state is read again")
        looks.finish(with: Self.snapshot("reachable"))
    }
}
