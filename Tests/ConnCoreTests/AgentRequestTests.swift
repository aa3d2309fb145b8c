import ConnCore
import Foundation
import Testing

/// The agent's control protocol, read as a hostile local peer could write it: one JSON line,
/// checked before anything is done with it.
@Suite("the agent's control requests")
struct AgentRequestTests {
    func read(_ line: String) -> AgentClient.Request? { AgentClient.Request(line: Array(line.utf8)) }

    @Test("status and wake, with the messages handed over or without (what older clients send)")
    func wellFormed() {
        #expect(read(#"{"request":"status"}"#) == .status)
        #expect(read(#"{"request":"wake","ids":["a1","b2"]}"#) == .wake(handingOver: ["a1", "b2"]))
        #expect(read(#"{"request":"wake"}"#) == .wake(handingOver: []))
    }

    @Test("refused: unknown requests, ids that are not a short list of short strings, oversized lines, not JSON")
    func malformed() {
        #expect(read(#"{"request":"shutdown"}"#) == nil)
        #expect(read(#"{"request":"wake","ids":"a1"}"#) == nil)
        #expect(read(#"{"request":"wake","ids":[1,2]}"#) == nil)
        #expect(read(#"{"request":"wake","ids":[""]}"#) == nil)
        #expect(read(#"{"request":"wake","ids":["\#(String(repeating: "x", count: 65))"]}"#) == nil)
        let many = (0...AgentClient.Request.maximumIDs).map { "\"m\($0)\"" }.joined(separator: ",")
        #expect(read(#"{"request":"wake","ids":[\#(many)]}"#) == nil)
        #expect(read(#"{"request":"status","pad":"\#(String(repeating: " ", count: 20_000))"}"#) == nil)
        #expect(read("status") == nil)
        #expect(read("[]") == nil)
    }
}
