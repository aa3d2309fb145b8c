import ConnCore
import ConnInbox
import ConnTestSupport
import Foundation
import Logging
import Synchronization
import Testing
@testable import ConnLive

/// The live session's inbox sync: one fetch at a time; the requests made while one runs fold
/// into one fetch after it. The server is a scripted one whose answer trickles (about a second),
/// so "while one runs" is certain, and whose request log counts the fetches.
@Suite("inbox sync worker")
struct InboxSyncWorkerTests {
    static let inbox = #"{"inbox":[{"uid":"1","from":"a@x","to":"b@x","subject":"s","text":"t","responseToUid":"","dateTime":"Today"}]}"#

    @Test("five requests during a fetch give one more fetch, not five; a request after that, one more; each fetch reported")
    func requestsFoldDuringAFetch() async throws {
        let home = try TemporaryDirectory()
        let routes = [BadServer.Route(path: "/inbox", status: 200, headers: [["Content-Type", "application/json"]], body: Self.inbox,
                                      trickle: .init(bytes: 12, intervalMs: 100))]
        try await BadServer.with(routes) { server in
            let configuration = try ConfigurationLoader(environment: home.environment.merging(["CONN_SERVER": server.url.absoluteString]) { $1 }).load()
            let database = try LocalDatabase(path: home.path + "/conn.sqlite", migrations: InboxMigrations.all)
            let results = Mutex<[InboxSyncResult]>([])
            let worker = InboxSyncWorker(fetcher: InboxFetcher(url: server.url.appendingPathComponent("inbox"), database: database),
                                         configuration: configuration, logger: Logger(label: "test")) { result in results.withLock { $0.append(result) } }
            func fetches() -> Int { ((try? server.requests()) ?? []).filter { $0.path == "/inbox" }.count }
            func reported() -> Int { results.withLock { $0.count } }

            worker.request()
            #expect(await poll(for: 30, every: .milliseconds(10)) { fetches() == 1 ? true : nil } == true)
            // The first fetch is under way (its answer trickles for about a second).
            for _ in 0..<5 { worker.request() }
            #expect(reported() == 0, "the first fetch ended before the requests: they did not come during it")
            #expect(await poll(for: 30, every: .milliseconds(10)) { reported() == 2 ? true : nil } == true, "\(results.withLock { $0 })")
            #expect(fetches() == 2)
            // The marker that nothing else was queued: one more request is one more fetch, the third.
            worker.request()
            #expect(await poll(for: 30, every: .milliseconds(10)) { reported() == 3 ? true : nil } == true)
            #expect(fetches() == 3)
            let all = results.withLock { $0 }
            #expect(all.allSatisfy { $0.ok }, "\(all)")
            await worker.stop()
        }
    }
}
