import ConnCore
import ConnTestSupport
import Foundation
import Testing

/// Hostile inboxes are fetched in bounded memory: what the merge keeps of them stays in SQLite or
/// in the mapped document, whose pages are handed back as the passes go. Each case is measured
/// against a one-message fetch (the binary's own pages), as peak resident memory.
@Suite("hostile inboxes in bounded memory")
struct HostileInboxMemoryTests {
    static let text = String(repeating: "x", count: 1_000)

    /// Peak resident memory of one `conn inbox fetch` of `file` from `base` into a cache of its
    /// own, in kB.
    func peakKB(_ file: String, from base: URL) async throws -> Int {
        let cache = try TemporaryDirectory()
        let timing = cache.path + "/peak"
        let outcome = try await ConnProcess.run("/usr/bin/time", ["-o", timing, "-f", "%M", ConnProcess.connPath, "inbox", "fetch"],
                                                environment: cache.environment.merging(["CONN_SERVER": base.absoluteString,
                                                                                        "CONN_RESOURCES_INBOX": "\(base.absoluteString)/\(file)"]) { $1 })
        #expect(outcome.exitCode == 0, "\(file): \(outcome.standardError)")
        let text = try String(contentsOfFile: timing, encoding: .utf8)
        return try #require(Int(text.split(separator: "\n").last { !$0.isEmpty } ?? ""), "\(text)")
    }

    /// Fetches `records` as one document and a one-message document; the two peaks, and the
    /// document's size, in kB.
    func peaks(_ records: [String]) async throws -> (one: Int, document: Int, size: Int) {
        let files = try TemporaryDirectory()
        let document = #"{"inbox":["# + records.joined(separator: ",") + "]}"
        try files.write("hostile.json", document)
        try files.write("one.json", #"{"inbox":["# + records[0] + "]}")
        return try await StaticFileServer.with(directory: files.path) { base in
            (try await peakKB("one.json", from: base), try await peakKB("hostile.json", from: base), document.utf8.count / 1024)
        }
    }

    @Test("80,000 records of 1 KB, each uid given 80 times: the fetch's peak memory stays below half the document's size above a one-message fetch")
    func copiesDoNotHoldTheDocument() async throws {
        let records = (0..<80_000).map { index in
            #"{"uid":"u\#(index % 1_000)","from":"a@x.example","to":"b@x.example","subject":"copy \#(index)","text":"\#(Self.text)","responseToUid":"","dateTime":"2026-11-01T10:00:00Z"}"#
        }
        let peak = try await peaks(records)
        // With every page kept the difference was the whole document (78 MB over a 25 MB
        // one-message fetch for this 89 MB document); handed back, 10 MB.
        #expect(peak.document - peak.one < peak.size / 2, "a one-message fetch peaked at \(peak.one) kB, this one at \(peak.document) kB (the document is \(peak.size) kB)")
    }

    @Test("60,000 records, each answering a parent of its own that is not there (a 1 KB uid): the placeholders stay out of memory")
    func missingParentsStayInSQLite() async throws {
        let records = (0..<60_000).map { index in
            #"{"uid":"u\#(index)","from":"a@x.example","to":"b@x.example","subject":"orphan \#(index)","text":"t","responseToUid":"\#(Self.text)-\#(index)","dateTime":"2026-11-01T10:00:00Z"}"#
        }
        let peak = try await peaks(records)
        // In a dictionary, the 60,000 uids took 61 MB over a 25 MB one-message fetch for this
        // 67 MB document; in SQLite, 10 MB.
        #expect(peak.document - peak.one < peak.size / 2, "a one-message fetch peaked at \(peak.one) kB, this one at \(peak.document) kB (the document is \(peak.size) kB)")
    }
}
