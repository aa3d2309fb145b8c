import ConnCore
import ConnTestSupport
import Foundation
import Testing

/// A long flush holds its memory flat: what one request needed is given back when it ends. Each
/// request's deadline was a sleeping Task, and a cancelled `Task.sleep` keeps its timer (and the
/// task's memory) queued until the deadline would have come: a flush of 100,000 grew by 20 MB.
@Suite("outbox flush memory")
struct FlushMemoryTests {
    @Test("6,000 queued, a 120 s timeout: the flush's private memory grows by less than 1 MB over its second half; all stored")
    func flushMemoryStaysFlat() async throws {
        let home = try TemporaryDirectory()
        let count = 6_000
        _ = try await home.conn(["outbox", "list"])  // creates the database
        let fill = try await ConnProcess.run("/usr/bin/env", ["python3", JSONSchemaCheck.repositoryRoot.path + "/bench/lib/fill-outbox.py",
                                                              home.path + "/data/conn/conn.sqlite", String(count), "flat"],
                                             environment: ProcessInfo.processInfo.environment)
        #expect(fill.exitCode == 0, "\(fill.standardError)")
        let server = try await BackgroundServer.start()
        let flush = Process()
        flush.executableURL = URL(fileURLWithPath: ConnProcess.connPath)
        // Every deadline outlives the flush: with timers kept until they would fire, the memory
        // of every request made would still be held at the end.
        flush.arguments = ["outbox", "flush", "--concurrency", "8", "--timeout", "120s"]
        flush.environment = home.environment.merging(["CONN_SERVER": server.url.absoluteString]) { $1 }
        flush.standardOutput = FileHandle.nullDevice
        flush.standardError = FileHandle.nullDevice
        try flush.run()
        // RssAnon: the process's private memory (the binary's pages are file-backed), in kB.
        var samples: [Int] = []
        while flush.isRunning {
            if let kB = ProcessStatus.kilobytes("RssAnon", of: flush.processIdentifier) { samples.append(kB) }
            try await Task.sleep(for: .milliseconds(20))
        }
        flush.waitUntilExit()
        #expect(flush.terminationStatus == 0)
        let stored = try await server.inbox().filter { ($0["subject"] as? String)?.hasPrefix("flat-") == true }.count
        await server.stop()
        #expect(stored == count)
        // The first half fills what is bounded anyway (SQLite's page cache, the allocator's
        // arenas: 4–7 MB); held timers go on growing, about 750 bytes a request (the second
        // half of 8,000 grew 3.0 MB with them; of 6,000, 4–36 kB without).
        try #require(samples.count >= 8, "\(samples)")
        let early = samples[samples.count / 2]
        let late = samples[(samples.count / 2)...].max() ?? early
        #expect(late - early < 1_024, "private memory grew from \(early) to \(late) kB: \(samples)")
    }
}
