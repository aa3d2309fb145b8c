import ConnCore
import ConnTestSupport
import Foundation
import Testing

/// A hostile inbox of one uid's copies, again and again, is fetched in bounded memory: the copies
/// are read where they lie in the mapped document, and its pages are handed back as they go (the
/// two passes over copies kept every page resident: 161 MB for a document of 143 MB).
@Suite("inbox copies in bounded memory")
struct InboxCopiesMemoryTests {
    @Test("80,000 records of 1 KB, each uid given 80 times: the fetch's peak memory stays below half the document's size above a one-message fetch")
    func copiesDoNotHoldTheDocument() async throws {
        let files = try TemporaryDirectory()
        let text = String(repeating: "x", count: 1_000)
        var records: [String] = []
        records.reserveCapacity(80_000)
        for index in 0..<80_000 {
            records.append(#"{"uid":"u\#(index % 1_000)","from":"a@x.example","to":"b@x.example","subject":"copy \#(index)","text":"\#(text)","responseToUid":"","dateTime":"2026-11-01T10:00:00Z"}"#)
        }
        let document = #"{"inbox":["# + records.joined(separator: ",") + "]}"
        try files.write("copies.json", document)
        try files.write("one.json", #"{"inbox":["# + records[0] + "]}")
        try await StaticFileServer.with(directory: files.path) { base in
            /// Peak resident memory of one fetch of `file` into its own cache, in kB.
            func peakKB(_ file: String) async throws -> Int {
                let cache = try TemporaryDirectory()
                let timing = cache.path + "/peak"
                let outcome = try await ConnProcess.run("/usr/bin/time", ["-o", timing, "-f", "%M", ConnProcess.connPath, "inbox", "fetch"],
                                                        environment: cache.environment.merging(["CONN_SERVER": base.absoluteString,
                                                                                                "CONN_RESOURCES_INBOX": "\(base.absoluteString)/\(file)"]) { $1 })
                #expect(outcome.exitCode == 0, "\(file): \(outcome.standardError)")
                let text = try String(contentsOfFile: timing, encoding: .utf8)
                return try #require(Int(text.split(separator: "\n").last { !$0.isEmpty } ?? ""), "\(text)")
            }
            let one = try await peakKB("one.json")
            let copies = try await peakKB("copies.json")
            // With every page kept the difference was the whole document (78 MB over a 25 MB
            // one-message fetch for this 89 MB document); handed back, 10 MB.
            #expect(copies - one < document.utf8.count / 2 / 1024, "a one-message fetch peaked at \(one) kB, the copies' at \(copies) kB (the document is \(document.utf8.count / 1024) kB)")
        }
    }
}
