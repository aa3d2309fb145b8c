import ConnCore
import ConnTestSupport
import Foundation
import Testing

@testable import ConnInbox

/// A reply chain drawn whole (`--max-depth 100000`) costs the same per message at any depth:
/// the tree stops indenting past `ThreadReport.indentedDepth` and marks the depth instead, and
/// the JSON tree stops nesting at `jsonTreeDepth`. Time and memory are in bench/cases/thread.sh.
@Suite("inbox thread: deep chains")
struct DeepThreadTests {
    static let server = "http://127.0.0.1:9"

    /// A cache in `home` holding one chain of `count` messages: uid i answers uid i-1.
    static func chain(_ count: Int, in home: TemporaryDirectory) throws {
        let records = (0..<count).map { index in
            #"{"uid":"\#(index)","from":"a\#(index % 7)@x.cc","to":"b@x.cc","subject":"chain","text":"reply \#(index)","responseToUid":"\#(index == 0 ? "" : String(index - 1))","dateTime":"2026-11-20T10:00:00Z"}"#
        }
        let document = try InboxDocumentReader.read(Data(#"{"inbox":[\#(records.joined(separator: ","))]}"#.utf8), source: "s")
        try FileManager.default.createDirectory(atPath: home.path + "/data/conn", withIntermediateDirectories: true)
        let database = try LocalDatabase(path: home.path + "/data/conn/conn.sqlite", migrations: InboxMigrations.all)
        _ = try InboxCache(database: database).store(document, etag: nil, requested: server + "/inbox", source: server + "/inbox", at: Date())
    }

    @Test("3,000 and 100,000 deep: the same bytes per message, no line wider than the terminal, the depth marked; JSON nests 200 deep at most")
    func linearAtAnyDepth() async throws {
        var bytesPerMessage: [Double] = []
        for count in [3_000, 100_000] {
            let home = try TemporaryDirectory()
            try Self.chain(count, in: home)
            // Into a file: 100,000 messages print about 20 MB, more than a test reads from a pipe.
            let file = home.path + "/thread.txt"
            let environment = home.environment.merging(["CONN_SERVER": Self.server, "COLUMNS": "80", "LANG": "C.UTF-8"]) { $1 }
            let drawn = try await ConnProcess.run("/bin/sh", ["-c", #""$0" inbox thread 0 --max-depth 100000 > "$1""#, ConnProcess.connPath, file],
                                                  environment: environment)
            #expect(drawn.exitCode == 0, "\(drawn.standardError)")
            let text = try String(contentsOfFile: file, encoding: .utf8)
            bytesPerMessage.append(Double(text.utf8.count) / Double(count))
            let lines = text.split(separator: "\n")
            #expect(lines.allSatisfy { $0.count < 80 }, "\(lines.first { $0.count >= 80 } ?? "")")
            #expect(text.contains("↳ \(count - 1) a\((count - 1) % 7)@x.cc"), "the deepest reply, marked with its depth")
            #expect(!text.contains("deeper replies not drawn"))
            if count == 100_000 {
                let jsonFile = home.path + "/thread.json"
                let encoded = try await ConnProcess.run("/bin/sh", ["-c", #""$0" inbox thread 0 --max-depth 100000 --json > "$1""#, ConnProcess.connPath, jsonFile],
                                                        environment: environment)
                #expect(encoded.exitCode == 0, "\(encoded.standardError)")
                let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: jsonFile))) as? [String: Any])
                #expect((object["messages"] as? [[String: Any]])?.count == count)
                var depth = 0
                var node = object["tree"] as? [String: Any]
                while let children = node?["children"] as? [[String: Any]], let first = children.first {
                    depth += 1
                    node = first
                }
                #expect(depth == ThreadReport.jsonTreeDepth && node?["omittedReplies"] as? Int == count - 1 - ThreadReport.jsonTreeDepth)
            }
        }
        // Linear: the longer chain's messages cost no more than the shorter's (their uids are longer).
        #expect(bytesPerMessage[1] < bytesPerMessage[0] * 1.2, "\(bytesPerMessage)")
    }
}
