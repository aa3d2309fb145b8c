import ConnClock
import ConnCore
import ConnInbox
import ConnLive
import ConnOutbox
import ConnProbe
import ConnTestSupport
import Foundation
import Logging
import Synchronization
import Testing

/// The live session in-process, over the real conn-server on loopback and a real SQLite file:
/// the parts wired once — the state, the link, delivery that follows the state, sync on
/// becoming online, the clock offset stored — as watch, the agent and the REPL consume it.
@Suite("live session")
struct LiveSessionTests {
    /// Every event the session reported, in order.
    final class Recorder: Sendable {
        let events = Mutex<[LiveSession.Event]>([])
        func record(_ event: LiveSession.Event) { events.withLock { $0.append(event) } }
        func first<Value: Sendable>(within seconds: Double = 60, _ pick: @escaping @Sendable (LiveSession.Event) -> Value?) async -> Value? {
            await poll(for: seconds, every: .milliseconds(20)) { () -> Value? in
                let events = self.events.withLock { $0 }
                return events.compactMap(pick).first
            }
        }
    }

    @Test("one session: baseline online, the link connected with an offset, a queued message delivered once the state is online, the inbox synced, the offset stored")
    func wiresItsParts() async throws {
        let home = try TemporaryDirectory()
        try await ServerProcess.with { url in
            let configuration = try ConfigurationLoader(environment: home.environment.merging(["CONN_SERVER": url.absoluteString]) { $1 }).load()
            let backEnd = try #require(configuration.backEnd)
            let database = try LocalDatabase(path: home.path + "/conn.sqlite", migrations: OutboxMigrations.all + InboxMigrations.all)
            let store = OutboxStore(database: database, expiry: .seconds(3600), token: nil)
            let queued = try store.enqueue(OutboxDraft(to: "ann@conn.example", subject: "from the session", text: "t", responseToUid: nil), now: Date())

            let logger = Logger(label: "test")
            var parts = LiveSession.Parts(check: try ConnectivityCheck(targets: [.server(backEnd)], internetEndpoints: [], configuration: configuration),
                                          interval: .seconds(30), grace: .zero, link: BackEndLink(backEnd, configuration: configuration, logger: logger))
            parts.delivery = LiveSession.Delivery(store: store, url: backEnd.url(for: .messages))
            parts.sync = LiveSession.InboxSync(url: backEnd.url(for: .inbox), database: database, interval: .seconds(60))
            parts.database = database
            let metrics = MonitorMetrics()
            parts.metrics = metrics
            let recorder = Recorder()
            let session = LiveSession(parts, configuration: configuration, logger: logger) { recorder.record($0) }

            let baseline = await recorder.first { event -> NetworkState? in
                if case .looked(let decision, _) = event, decision.event?.type == .baseline { return decision.event?.state }
                return nil
            }
            #expect(baseline?.state == .online, "\(recorder.events.withLock { $0 })")
            let offset = await recorder.first { event -> Int? in
                if case .link(.connected(let offset)) = event { return offset }
                return nil
            }
            #expect(offset != nil, "the link connects and measures an offset")
            // Delivery follows the state: online at the baseline, so the queued message goes.
            let pass = await recorder.first { event -> OutboxFlushWorker.Pass? in
                if case .outbox(let pass) = event, pass.tally.sent > 0 { return pass }
                return nil
            }
            #expect(pass?.tally.sent == 1 && pass?.waiting == 0, "\(String(describing: pass))")
            let inbox = try await ConnProcess.run("/usr/bin/env", ["curl", "-sf", url.appendingPathComponent("inbox").absoluteString],
                                                  environment: ProcessInfo.processInfo.environment)
            #expect(inbox.standardOutput.components(separatedBy: "from the session").count == 2, "stored once: \(inbox.standardOutput)")
            #expect(try store.counts()[.sent] == 1, "message \(queued.id)")
            // Sync follows becoming online.
            let synced = await recorder.first { event -> InboxSyncResult? in
                if case .synced(let result) = event { return result }
                return nil
            }
            #expect(synced?.ok == true, "\(String(describing: synced))")
            // The link's clock estimate is stored for `clock-offset --convert` and served as a metric.
            let stored = await poll(for: 60, every: .milliseconds(50)) { try? StoredOffset.load(from: database) }
            #expect(stored?.method == "ws" && stored?.source == backEnd.url(for: .ws).absoluteString, "\(String(describing: stored))")
            #expect(metrics.snapshot().linkConnected == true && metrics.snapshot().clockOffsetMs != nil)
            #expect(session.delivers)
            await session.stop()
        }
    }
}
