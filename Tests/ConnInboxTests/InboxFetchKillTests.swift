import ConnCore
import ConnTestSupport
import Foundation
import GRDB
import Testing

/// `inbox fetch` downloads the body to a file, reads it through a map and merges it in one
/// transaction: a conn killed at any point leaves the copy it had or the new one, whole, and
/// no download file behind.
@Suite("inbox fetch killed with SIGKILL")
struct InboxFetchKillTests {
    static let oldCount = 300
    static let newCount = 20_000

    /// An inbox of `count` messages, every third a reply to the one before.
    static func document(_ count: Int, edition: String) -> String {
        let records = (0..<count).map { index in
            let parent = index % 3 == 2 ? "m\(index - 1)" : ""
            return #"{"uid":"m\#(index)","from":"ann@example.com","to":"bob@example.com","subject":"\#(edition) \#(index)","text":"\#(String(repeating: "words ", count: 30))","responseToUid":"\#(parent)","dateTime":"2026-11-\#(10 + index % 15)T10:00:00Z"}"#
        }
        return #"{"inbox":[\#(records.joined(separator: ","))]}"#
    }

    /// What the cache holds: messages, conversations, and whether every message's conversation is there.
    struct Copy: Equatable {
        var messages: Int
        var wholeThreads: Bool
    }

    static func copy(at path: String) throws -> Copy {
        let queue = try DatabaseQueue(path: path)
        return try queue.read { db in
            #expect(try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok")
            let messages = try Int.fetchOne(db, sql: "SELECT count(*) FROM inboxMessage") ?? -1
            let roots = try Int.fetchOne(db, sql: "SELECT count(DISTINCT threadRoot) FROM inboxMessage") ?? -1
            let conversations = try Int.fetchOne(db, sql: "SELECT count(*) FROM inboxConversation") ?? -2
            let summed = try Int.fetchOne(db, sql: "SELECT sum(messageCount) FROM inboxConversation") ?? -3
            return Copy(messages: messages, wholeThreads: roots == conversations && summed == messages)
        }
    }

    /// The size of the process's download file, if it has one open.
    static func downloadSize(of pid: Int32) -> Int? {
        let directory = "/proc/\(pid)/fd"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(directory)/\(name)"),
                target.contains(".conn-download-") else { continue }
            var status = stat()
            if stat("\(directory)/\(name)", &status) == 0 { return Int(status.st_size) }
        }
        return nil
    }

    @Test("killed while the body downloads, inside the store's transaction, and at times across the fetch: the old copy or the new, whole; no download file left; the next fetch stores it all")
    func killedAtSeveralPoints() async throws {
        var route = BadServer.Route.inTurn("GET", "/inbox", [
            BadServer.Answer(200, headers: [["Content-Type", "application/json"]], body: Self.document(Self.oldCount, edition: "old")),
            BadServer.Answer(200, headers: [["Content-Type", "application/json"]], body: Self.document(Self.newCount, edition: "new")),
        ])
        // The new inbox (~5 MB) arrives in ~1.5 s: a kill can land while it downloads.
        route.trickle = BadServer.Trickle(bytes: 65_536, intervalMs: 20, afterHead: true)
        try await BadServer.with([route]) { server in
            let home = try TemporaryDirectory()
            let data = home.path + "/data/conn"
            let database = data + "/conn.sqlite"
            let first = try await home.conn(["inbox", "fetch"], server: server.url)
            try #require(first.exitCode == 0, "\(first.standardError)")
            #expect(try Self.copy(at: database) == Copy(messages: Self.oldCount, wholeThreads: true))

            /// One fetch killed once `beforeKill` returns; what it left, which must be whole.
            func killOnce(_ beforeKill: (SpawnedProcess) async throws -> Void) async throws -> Copy {
                let process = try SpawnedProcess(ConnProcess.connPath, ["inbox", "fetch", "--force", "--server", server.url.absoluteString],
                                                 environment: home.environment)
                try await beforeKill(process)
                process.signal(SIGKILL)
                await process.exited()
                let left = try Self.copy(at: database)
                #expect(left.wholeThreads, "threads half written: \(left)")
                #expect([Self.oldCount, Self.newCount].contains(left.messages), "neither the old copy nor the new: \(left)")
                let files = try FileManager.default.contentsOfDirectory(atPath: data).filter { $0.contains("download") }
                #expect(files.isEmpty, "left behind: \(files)")
                return left
            }

            // While downloading: the first 256 KiB are in the file. Nothing is stored yet.
            var downloading = false
            let duringDownload = try await killOnce { process in
                downloading = await poll(for: 30, every: .milliseconds(2)) {
                    (Self.downloadSize(of: process.processIdentifier) ?? 0) >= 262_144 ? true : nil
                } ?? false
            }
            #expect(downloading, "the download was never seen under way")
            #expect(duringDownload.messages == Self.oldCount)

            // Inside the store's transaction: once it has written 256 KiB more to the WAL, the
            // process is stopped (SIGSTOP), and the copy read: still the old one, so the kill that
            // follows lands inside the transaction, however late this test's thread ran (a kill
            // sent straight away found it committed on a loaded machine). One that found it
            // committed (a fast machine) proves nothing; one must land inside.
            var landedInside = 0
            for _ in 0..<3 {
                let baseline = ((try? FileManager.default.attributesOfItem(atPath: database + "-wal"))?[.size] as? Int) ?? 0
                var stoppedInside = false
                let left = try await killOnce { process in
                    let writing = await poll(for: 60, every: .milliseconds(1)) {
                        (((try? FileManager.default.attributesOfItem(atPath: database + "-wal"))?[.size] as? Int) ?? 0) > baseline + 262_144 ? true : nil
                    } ?? false
                    guard writing else { return }
                    process.signal(SIGSTOP)
                    stoppedInside = try Self.copy(at: database).messages == Self.oldCount
                }
                if stoppedInside, left.messages == Self.oldCount { landedInside += 1 }
                if left.messages == Self.newCount { break }  // committed: later kills find the new copy
            }
            // Kills at delays across the fetch's course: whatever each hits, it leaves a whole copy.
            for delay in [100, 700, 1_400, 2_000] {
                _ = try await killOnce { _ in try await Task.sleep(for: .milliseconds(delay)) }
            }
            let last = try await home.conn(["inbox", "fetch", "--force"], server: server.url)
            #expect(last.exitCode == 0, "\(last.standardError)")
            #expect(try Self.copy(at: database) == Copy(messages: Self.newCount, wholeThreads: true))
            #expect(landedInside > 0, "no kill landed inside the store's transaction")
        }
    }
}
