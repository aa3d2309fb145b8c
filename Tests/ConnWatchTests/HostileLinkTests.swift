import ConnTestSupport
import Foundation
import Testing

/// The WebSocket link against a hostile server: crafted pongs (extreme timestamps, unsolicited,
/// replayed), junk and malformed frames. `conn watch` must never die of them (no signal exit),
/// and only a pong answering one of its own pings, with plausible times, may set the offset.
@Suite("conn watch's link against a hostile server")
struct HostileLinkTests {
    static let minInt = "-9223372036854775808"
    static let maxInt = "9223372036854775807"

    /// Frames a hostile server pushes unasked: pongs for pings never sent, extreme and absurd values.
    static let hostileFrames = [
        #"{"type":"pong","t1":\#(minInt),"t2":\#(maxInt),"t3":\#(minInt)}"#,
        #"{"type":"pong","t1":0,"t2":0,"t3":0}"#,
        #"{"type":"pong","t1":1,"t2":\#(maxInt),"t3":\#(maxInt)}"#,
        #"{"type":"pong","t1":1e400,"t2":-1e400,"t3":0}"#,
        #"{"type":"pong","t1":"x","t2":[],"t3":{}}"#,
        #"{"type":"hello","serverTime":\#(minInt)}"#,
        #"{"type":"newMail","email":{"uid":"\u001b]0;pwned\u0007"}}"#,
        "not json", "", "null", "[]", #"{"type":null}"#,
    ]

    /// Answers to the client's own ping that must be refused: its t1 with impossible server times.
    static let hostileAnswers = [
        #"{"type":"pong","t1":{t1},"t2":\#(maxInt),"t3":\#(minInt)}"#,
        #"{"type":"pong","t1":{t1},"t2":\#(minInt),"t3":\#(maxInt)}"#,
        #"{"type":"pong","t1":{t1},"t2":-1,"t3":{now}}"#,
        #"{"type":"pong","t1":{t1},"t2":1e400,"t3":{now}}"#,
        #"{"type":"pong","t1":{t1},"t2":{now}.5,"t3":-0.001}"#,
    ]

    /// `seconds` leaves room for a loaded machine: the link connects and pings at once.
    func watch(_ server: BadServer, seconds: Int = 5) async throws -> (ProcessOutcome, [[String: Any]]) {
        let home = try TemporaryDirectory()
        let environment = home.environment.merging(["CONN_SERVER": server.url.absoluteString]) { $1 }
        let outcome = try await ConnProcess.run(
            ConnProcess.connPath, ["watch", "--json", "--no-internet", "--until", "offline", "--timeout", "\(seconds)s"], environment: environment)
        let events = outcome.standardOutput.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        return (outcome, events)
    }

    static func connectedOffsets(_ events: [[String: Any]]) -> [Int] {
        events.compactMap { event in
            guard event["type"] as? String == "connectionState", let state = event["connectionState"] as? [String: Any],
                state["status"] as? String == "connected"
            else { return nil }
            return state["backEndTimeOffsetMs"] as? Int
        }
    }

    static let health = BadServer.Route(method: "GET", path: "/health", status: 204, body: "")

    @Test("extreme, unsolicited and junk frames: watch survives (exit 75 at its timeout) and never reports connected")
    func hostileFramesOnly() async throws {
        let routes = [Self.health, BadServer.Route(path: "/ws", websocket: .init(frames: Self.hostileFrames, onPing: Self.hostileAnswers, holdMs: 6000))]
        try await BadServer.with(routes) { server in
            let (outcome, events) = try await watch(server)
            #expect(outcome.exitCode == 75, "exit \(outcome.exitCode): \(outcome.standardError)")
            #expect(!events.isEmpty, "\(outcome.standardOutput)")
            #expect(Self.connectedOffsets(events).isEmpty, "a hostile pong set the offset: \(outcome.standardOutput)")
            #expect(!outcome.standardOutput.contains("\u{1B}") && !outcome.standardError.contains("\u{1B}"))
            // The client did ping, so the hostile answers were really put to it.
            #expect(server.webSocketTexts().contains { $0.contains(#""type":"ping""#) })
        }
    }

    @Test("after the hostile frames, a pong that answers the client's ping with plausible times connects, with a small offset")
    func validPongAfterHostileOnes() async throws {
        let answers = Self.hostileAnswers + [#"{"type":"pong","t1":{t1},"t2":{now},"t3":{now}}"#]
        let routes = [Self.health, BadServer.Route(path: "/ws", websocket: .init(frames: Self.hostileFrames, onPing: answers, holdMs: 6000))]
        try await BadServer.with(routes) { server in
            let (outcome, events) = try await watch(server)
            #expect(outcome.exitCode == 75, "exit \(outcome.exitCode): \(outcome.standardError)")
            let offsets = Self.connectedOffsets(events)
            #expect(offsets.count == 1, "\(outcome.standardOutput)")
            #expect(offsets.allSatisfy { abs($0) < 2_000 }, "\(offsets)")
        }
    }

    @Test("seed 002's offset is filtered as clock-offset's: a pong whose server times claim a 60 s wait (an offset of +30 s from that one sample) does not move the offset the good pongs gave")
    func filteredOffset() async throws {
        // In turn: a good pong, then one whose t2 lies 60 s after t3 (a delay of a minute); the
        // opening pings (four, 100 ms apart) end on a skewed one.
        let good = #"{"type":"pong","t1":{t1},"t2":{now},"t3":{now}}"#
        let skewed = #"{"type":"pong","t1":{t1},"t2":{now+60000},"t3":{now}}"#
        let routes = [Self.health, BadServer.Route(path: "/ws", websocket: .init(onPingInTurn: [good, skewed], holdMs: 6000))]
        try await BadServer.with(routes) { server in
            // The four opening pings come within half a second of connecting, the next after 10 s:
            // a 5 s watch sees exactly four, however late it connects.
            let (_, events) = try await watch(server, seconds: 5)
            #expect(server.webSocketTexts().filter { $0.contains(#""type":"ping""#) }.count == 4)
            #expect(!Self.connectedOffsets(events).isEmpty, "\(events)")
            // The last line (stopped at --timeout) carries the link's offset after the last pong.
            let last = try #require(events.last { $0["type"] as? String == "stopped" }?["connectionState"] as? [String: Any], "\(events)")
            let offset = try #require(last["backEndTimeOffsetMs"] as? Int, "\(last)")
            #expect(abs(offset) < 1_000, "the last, skewed sample moved the offset to \(offset) ms")
        }
    }

    /// A random value for a field: extreme and absurd numbers, wrong types, or nothing.
    static func randomValue(using generator: inout some RandomNumberGenerator) -> String? {
        let choices: [() -> String?] = [
            { minInt }, { maxInt }, { "0" }, { "-1" }, { "1e308" }, { "-1e308" }, { "1e400" }, { "9223372036854775808" },
            { "-9223372036854775809" }, { "0.5" }, { "\"12\"" }, { "null" }, { "[]" }, { "{}" }, { "true" }, { nil },
            { String(Int64.random(in: Int64.min...Int64.max)) }, { String(Int64.random(in: 0...253_402_300_799_999)) },
        ]
        return choices.randomElement(using: &generator)!()
    }

    static func randomFrame(t1: String? = nil, using generator: inout some RandomNumberGenerator) -> String {
        let type = ["pong", "pong", "ping", "hello", "newMail", "x", ""].randomElement(using: &generator)!
        var fields = ["\"type\":\"\(type)\""]
        for name in ["t1", "t2", "t3", "serverTime"] {
            let value = name == "t1" && t1 != nil && Bool.random(using: &generator) ? t1 : randomValue(using: &generator)
            if let value { fields.append("\"\(name)\":\(value)") }
        }
        if type == "newMail" { fields.append(#""email":{"uid":"\u001b[2J","from":1}"#) }
        let object = "{" + fields.shuffled(using: &generator).joined(separator: ",") + "}"
        // Now and then a frame cut short, or not JSON at all.
        switch Int.random(in: 0..<10, using: &generator) {
        case 0: return String(object.prefix(Int.random(in: 0...object.count, using: &generator)))
        case 1: return String((0..<Int.random(in: 0...40, using: &generator)).map { _ in Character(Unicode.Scalar(UInt8.random(in: 32...126, using: &generator))) })
        default: return object
        }
    }

    @Test("fuzz: 300 random frames and random answers to the client's pings: no crash, no implausible offset")
    func randomFrames() async throws {
        // Seeded, and the seed said on failure: CONN_TEST_SEED replays a run.
        let seed = ProcessInfo.processInfo.environment["CONN_TEST_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
        var generator = SeededGenerator(seed: seed)
        let frames = (0..<300).map { _ in Self.randomFrame(using: &generator) }
        let answers = (0..<40).map { _ in Self.randomFrame(t1: "{t1}", using: &generator) }
        let routes = [Self.health, BadServer.Route(path: "/ws", websocket: .init(frames: frames, onPing: answers, holdMs: 6000))]
        try await BadServer.with(routes) { server in
            let (outcome, events) = try await watch(server)
            #expect(outcome.exitCode == 75, "seed \(seed) (CONN_TEST_SEED): exit \(outcome.exitCode): \(outcome.standardError)\nframes: \(frames)\nanswers: \(answers)")
            // An offset may only come from a pong answering the ping with times in 0…year 9999.
            #expect(Self.connectedOffsets(events).allSatisfy { abs($0) <= 253_402_300_799_999 }, "seed \(seed) (CONN_TEST_SEED)")
        }
    }

    @Test("malformed frames (a length of 2^64-1, a fragmented ping, a reserved opcode, invalid UTF-8): no crash")
    func malformedFrames() async throws {
        let raw = [
            "817fffffffffffffffff",  // text frame claiming 2^64-1 bytes
            "0900",  // ping without FIN: control frames must not be fragmented
            "8300",  // reserved opcode 3
            "8102c328",  // text frame with invalid UTF-8
        ]
        for frame in raw {
            let routes = [Self.health, BadServer.Route(path: "/ws", websocket: .init(rawFrames: [frame], holdMs: 3000))]
            try await BadServer.with(routes) { server in
                let (outcome, events) = try await watch(server, seconds: 2)
                #expect(outcome.exitCode == 75, "frame \(frame): exit \(outcome.exitCode): \(outcome.standardError)")
                #expect(Self.connectedOffsets(events).isEmpty)
            }
        }
    }
}
