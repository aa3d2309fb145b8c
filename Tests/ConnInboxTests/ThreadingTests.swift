import ConnCore
import Foundation
import Testing

@testable import ConnInbox

@Suite("Threading")
struct ThreadingTests {
    typealias M = ThreadBuilder.Message

    func all(_ forest: ThreadBuilder.Forest) -> [String] {
        forest.roots.flatMap { forest.walk(from: $0) }.filter { !$0.isPlaceholder }.map(\.uid)
    }

    @Test("last-child flags in one pass equal the definition (no later sibling before a shallower message), on random trees")
    func lastChildFlags() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            // A random depth-first list: each depth is at most one below the previous.
            var depths: [Int] = [0]
            for _ in 0..<Int.random(in: 0...60, using: &generator) {
                depths.append(Int.random(in: 0...(depths.last! + 1), using: &generator))
            }
            let expected = depths.indices.map { index in
                guard let next = depths[(index + 1)...].first(where: { $0 <= depths[index] }) else { return true }
                return next < depths[index]
            }
            #expect(ThreadReport.lastChildFlags(depths) == expected, "\(depths)")
        }
        // A 100,000-message chain: every message is its parent's only child.
        #expect(ThreadReport.lastChildFlags(Array(0..<100_000)).allSatisfy { $0 })
    }

    @Test func repliesNestUnderTheirParents() {
        let forest = ThreadBuilder.build([M(uid: "1", parentUid: "", order: 0), M(uid: "2", parentUid: "1", order: 1),
                                          M(uid: "3", parentUid: "2", order: 2), M(uid: "4", parentUid: "1", order: 3)])
        #expect(forest.roots == ["1"])
        #expect(forest.walk(from: "1").map(\.uid) == ["1", "2", "3", "4"])
        #expect(forest.walk(from: "1").map(\.depth) == [0, 1, 2, 1])
        #expect(forest.root(of: "3") == "1")
    }

    @Test("a reply whose parent is missing keeps its siblings together under a placeholder")
    func placeholders() {
        let forest = ThreadBuilder.build([M(uid: "a", parentUid: "gone", order: 0), M(uid: "b", parentUid: "gone", order: 1), M(uid: "c", parentUid: "", order: 2)])
        #expect(forest.roots == ["gone", "c"])
        #expect(forest.nodes["gone"]?.isPlaceholder == true)
        #expect(forest.nodes["gone"]?.children == ["a", "b"])
    }

    @Test func selfReferenceIsARoot() {
        let forest = ThreadBuilder.build([M(uid: "x", parentUid: "x", order: 0)])
        #expect(forest.roots == ["x"])
        #expect(forest.nodes["x"]?.brokeCycle == false)
    }

    @Test("a cycle is broken at its oldest message, flagged")
    func cycles() {
        let forest = ThreadBuilder.build([M(uid: "a", parentUid: "c", order: 5), M(uid: "b", parentUid: "a", order: 1), M(uid: "c", parentUid: "b", order: 3)])
        #expect(forest.roots == ["b"])
        #expect(forest.nodes["b"]?.brokeCycle == true)
        #expect(forest.walk(from: "b").map(\.uid) == ["b", "c", "a"])
    }

    @Test func duplicateUidsAreFlaggedAndTheLaterWins() {
        let forest = ThreadBuilder.build([M(uid: "1", parentUid: "", order: 0), M(uid: "1", parentUid: "", order: 1)])
        #expect(all(forest) == ["1"])
        #expect(forest.nodes["1"]?.duplicate == true)
    }

    @Test("a thread 5,000 deep does not recurse")
    func deepThread() {
        let messages = (0..<5000).map { M(uid: "m\($0)", parentUid: $0 == 0 ? "" : "m\($0 - 1)", order: $0) }
        let forest = ThreadBuilder.build(messages)
        #expect(forest.roots == ["m0"])
        #expect(forest.nodes["m4999"]?.depth == 4999)
        #expect(forest.walk(from: "m0").count == 5000)
    }

    /// Property: whatever the links (random parents, missing ones, cycles, self-references,
    /// duplicates), every message appears exactly once and depths are consistent.
    @Test func everyMessageAppearsExactlyOnce() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let count = Int.random(in: 1...60, using: &generator)
            let messages = (0..<count).map { index -> M in
                let parent: String = switch Int.random(in: 0..<10, using: &generator) {
                case 0...2: ""
                case 3: "missing\(Int.random(in: 0..<3, using: &generator))"
                default: "u\(Int.random(in: 0..<count, using: &generator))"
                }
                return M(uid: "u\(Int.random(in: 0..<(count + count / 5), using: &generator))", parentUid: parent, order: index)
            }
            let forest = ThreadBuilder.build(messages)
            let seen = all(forest)
            #expect(seen.count == Set(messages.map(\.uid)).count)
            #expect(Set(seen) == Set(messages.map(\.uid)))
            for root in forest.roots {
                for node in forest.walk(from: root) {
                    if let parent = node.parentUid { #expect(forest.nodes[parent]!.depth == node.depth - 1) } else { #expect(node.depth == 0) }
                }
            }
        }
    }
}

@Suite("Free-text dates")
struct DateTimeTextTests {
    let now = Date(timeIntervalSince1970: 1_795_377_662)

    @Test(arguments: [
        ("Today", 1_795_377_662.0), ("yesterday", 1_795_291_262.0),
        ("2026-11-22T20:01:02.345Z", 1_795_377_662.345), ("2026-11-22T20:01:02Z", 1_795_377_662.0),
        ("Sun, 22 Nov 2026 20:01:02 +0000", 1_795_377_662.0), ("22 Nov 2026 21:01:02 +0100", 1_795_377_662.0),
        ("Sun, 22 Nov 2026 20:01:02 GMT", 1_795_377_662.0), ("2026-11-22", 1_795_305_600.0),
    ])
    func parses(_ text: String, _ seconds: Double) throws {
        let date = try #require(DateTimeText.parse(text, relativeTo: now))
        #expect(abs(date.timeIntervalSince1970 - seconds) < 0.001)
    }

    /// The byte-level readers agree with Foundation's formatters over random dates, zones and
    /// shapes (1900-2100, offsets from -12:00 to +14:00).
    @Test("agrees with Foundation's formatting of 3,000 random dates")
    func agreesWithFoundation() throws {
        var generator = SystemRandomNumberGenerator()
        let rfc = DateFormatter()
        rfc.locale = Locale(identifier: "en_US_POSIX")
        rfc.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        for _ in 0..<3_000 {
            let seconds = Double(Int64.random(in: -2_208_988_800...4_102_444_800, using: &generator))
            let date = Date(timeIntervalSince1970: seconds)
            let zone = TimeZone(secondsFromGMT: Int.random(in: -48...56, using: &generator) * 900)!
            rfc.timeZone = zone
            let rfcText = rfc.string(from: date)
            #expect(DateTimeText.parse(rfcText, relativeTo: now)?.timeIntervalSince1970 == seconds, "\(rfcText)")
            var iso = Date.ISO8601FormatStyle(timeZone: zone)
            let isoText = date.formatted(iso)
            #expect(DateTimeText.parse(isoText, relativeTo: now)?.timeIntervalSince1970 == seconds, "\(isoText)")
            iso = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: zone)
            let fractional = date.addingTimeInterval(0.25)
            let fractionalText = fractional.formatted(iso)
            let parsed = try #require(DateTimeText.parse(fractionalText, relativeTo: now), "\(fractionalText)")
            #expect(abs(parsed.timeIntervalSince1970 - fractional.timeIntervalSince1970) < 0.001, "\(fractionalText)")
        }
    }

    @Test(arguments: ["", "soon", "last Tuesday", "32 Foo 2026 10:00", "2026-13-01", "2026-11-22T25:00Z", "Sun, 22 Nov 2026 20:01:02 +0000 extra", "22 Nov 2026 20:61"])
    func keepsWhatItCannotRead(_ text: String) {
        #expect(DateTimeText.parse(text, relativeTo: now) == nil)
    }
}

@Suite("Inbox document reader")
struct InboxDocumentReaderTests {
    @Test func readsSeedExampleExactly() throws {
        let records = try InboxDocumentReader.read(Data(#"{"inbox":[{"uid":"1","from":"matt@gmail.com","to":"jhon@gmail.com","subject":"subject 1","text":"t","responseToUid":"","dateTime":"Today"}]}"#.utf8), source: "s")
        #expect(records.count == 1)
        #expect(records[0].email.responseToUid == "")
        #expect(records[0].email.dateTime == "Today")
    }

    @Test(arguments: [
        (#"{"inbox":[{"uid":"1","subject":5}]}"#, "inbox[0].subject that is a number, not a string"),
        (#"{"inbox":[{"uid":"1"},{"subject":"x"}]}"#, "inbox[1] without a uid"),
        (#"{"inbox":{"uid":"1"}}"#, "an \"inbox\" that is an object, not an array"),
        (#"{"mail":[]}"#, "has no \"inbox\" field"),
        (#"[1,2]"#, "is not a JSON object"),
        (#"{"inbox":[{"uid":"1","to":"a@b.c""#, "is not valid JSON"),
        ("<!DOCTYPE html><html>", "is an HTML page"),
        ("", "is empty"),
    ])
    func namesWhatIsWrong(_ body: String, _ fragment: String) {
        let error = #expect(throws: ConnError.self) { try InboxDocumentReader.read(Data(body.utf8), source: "http://s/inbox") }
        #expect(error?.exitStatus == .dataError)
        #expect(error?.message.contains(fragment) == true, "\(error?.message ?? "")")
    }

    @Test func missingOptionalFieldsReadAsEmpty() throws {
        let records = try InboxDocumentReader.read(Data(#"{"inbox":[{"uid":"7","responseToUid":null}]}"#.utf8), source: "s")
        #expect(records[0].email.subject == "" && records[0].email.responseToUid == "")
    }
}
