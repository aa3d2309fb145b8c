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

    @Test("3,000 and 100,000 deep: the same bytes per message, no line wider than the terminal, the depth marked; JSON nests 64 deep at most")
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
    @Test("3,000 deep: thread 2000 shows 2000 itself with the path to it collapsed; the JSON, whole, is read by jq 1.6; at 60 columns every uid is shown whole")
    func deepMessageAskedFor() async throws {
        let home = try TemporaryDirectory()
        try Self.chain(3_000, in: home)
        let environment = home.environment.merging(["CONN_SERVER": Self.server, "COLUMNS": "80", "LANG": "C.UTF-8"]) { $1 }
        let asked = try await ConnProcess.run(ConnProcess.connPath, ["inbox", "thread", "2000"], environment: environment)
        #expect(asked.exitCode == 0, "\(asked.standardError)")
        let text = asked.standardOutput
        let order = ["reply 0\n", "⋮ 1998 messages on the way (uids 1 … 1998): --max-depth 2000 draws them", "uid 1999", "reply 1999\n",
                     "↳ 2000 ", "uid 2000", "reply 2000\n", "reply 2012\n", "… 987 other messages of the conversation not drawn"].map {
            text.range(of: $0).map { text.distance(from: text.startIndex, to: $0.lowerBound) } ?? -1
        }
        #expect(order.allSatisfy { $0 >= 0 } && order == order.sorted(), "\(order)\n\(text.prefix(3000))")
        #expect(!text.contains("reply 1998\n") && !text.contains("reply 2013\n"), "\(text.prefix(3000))")
        // The whole conversation as JSON, through Debian's jq 1.6 (it refuses more than 256 levels).
        let jq = ["/usr/bin/jq"].first { FileManager.default.isExecutableFile(atPath: $0) }
        #expect(TestTools.acceptable(jq), "jq is missing under .ci/run")
        if let jq {
            let piped = try await ConnProcess.run("/bin/sh", ["-c", #""$0" inbox thread 0 --max-depth 3000 --json | "$1" -c '[(.messages | length), .messages[2000].depth, .messages[2000].parentUid]'"#,
                                                              ConnProcess.connPath, jq], environment: environment)
            #expect(piped.exitCode == 0 && piped.standardOutput == "[3000,2000,\"1999\"]\n", "\(piped.standardOutput) \(piped.standardError)")
        }
        // 60 columns: deep headers wrap, and what is cut is the date, never the uid.
        let narrow = try await ConnProcess.run(ConnProcess.connPath, ["inbox", "thread", "0", "--max-depth", "3000"],
                                               environment: environment.merging(["COLUMNS": "60"]) { $1 })
        let lines = narrow.standardOutput.split(separator: "\n")
        #expect(lines.allSatisfy { $0.count < 60 }, "\(lines.first { $0.count >= 60 } ?? "")")
        let uids = Set(lines.compactMap { $0.firstMatch(of: /uid (\d+)( |$)/).map { String($0.1) } })
        #expect(uids.count == 3_000, "\(uids.count) of 3000 uids shown whole")
    }
}
