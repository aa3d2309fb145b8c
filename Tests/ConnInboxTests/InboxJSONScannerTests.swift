import ConnCore
import Foundation
import Testing

@testable import ConnInbox

/// Writes random inbox documents the way different servers might: any key order, unknown
/// fields with nested values, escapes spelled in different ways, non-ASCII text, whitespace.
struct RandomInboxWriter {
    static let fields = ["uid", "from", "to", "subject", "text", "responseToUid", "dateTime"]
    var generator: any RandomNumberGenerator

    mutating func int(_ range: Range<Int>) -> Int { Int.random(in: range, using: &generator) }
    mutating func chance(_ percent: Int) -> Bool { int(0..<100) < percent }

    mutating func space() -> String { chance(80) ? "" : ["", " ", "\n", "\t", "\r\n  "][int(0..<5)] }

    /// A string value: its text and one of the ways to spell it in JSON.
    mutating func string() -> (value: String, json: String) {
        let pieces = ["a", "Z", "9", " ", "é", "→", "😀", "\"", "\\", "/", "\n", "\t", "\u{1}", "\u{1F}", "<", "\u{7F}", "ü"]
        var value = ""
        var json = "\""
        for _ in 0..<int(0..<12) {
            let piece = pieces[int(0..<pieces.count)]
            value += piece
            for scalar in piece.unicodeScalars {
                switch scalar {
                case "\"": json += "\\\""
                case "\\": json += "\\\\"
                case "/": json += chance(50) ? "\\/" : "/"
                case "\n": json += chance(50) ? "\\n" : "\\u000a"
                case "\t": json += "\\t"
                case _ where scalar.value < 0x20: json += String(format: "\\u%04X", scalar.value)
                case _ where scalar.value > 0xFFFF && chance(50):
                    // A surrogate pair.
                    let offset = scalar.value - 0x10000
                    json += String(format: "\\u%04x\\u%04X", 0xD800 + (offset >> 10), 0xDC00 + (offset & 0x3FF))
                case _ where scalar.value > 0x7F && scalar.value <= 0xFFFF && chance(30): json += String(format: "\\u%04x", scalar.value)
                default: json.unicodeScalars.append(scalar)
                }
            }
        }
        return (value, json + "\"")
    }

    /// Any JSON value, for unknown fields.
    mutating func anyValue(depth: Int = 0) -> String {
        switch int(0..<(depth > 2 ? 5 : 7)) {
        case 0: return string().json
        case 1: return ["0", "-1", "12.5", "1e3", "-0.25E-2", "100"][int(0..<6)]
        case 2: return ["true", "false"][int(0..<2)]
        case 3: return "null"
        case 4: return string().json
        case 5: return "[" + (0..<int(0..<3)).map { _ in space() + anyValue(depth: depth + 1) + space() }.joined(separator: ",") + "]"
        default:
            return "{" + (0..<int(0..<3)).map { index in space() + "\"k\(index)\"" + space() + ":" + space() + anyValue(depth: depth + 1) }.joined(separator: ",") + "}"
        }
    }

    /// A record (its members in random order) and the values a reader should find.
    mutating func record(uid: String) -> (json: String, expected: [String: String]) {
        var members: [String] = []
        var expected: [String: String] = [:]
        for field in Self.fields {
            if field == "uid" {
                members.append("\"uid\":" + space() + "\"\(uid)\"")
                expected[field] = uid
                continue
            }
            switch int(0..<10) {
            case 0: expected[field] = ""  // absent
            case 1:
                members.append("\"\(field)\":" + space() + "null")
                expected[field] = ""
            default:
                let (value, json) = string()
                members.append("\"\(field)\"" + space() + ":" + space() + json)
                expected[field] = value
            }
        }
        for index in 0..<int(0..<3) { members.append("\"extra\(index)\":" + space() + anyValue()) }
        for index in members.indices.reversed() { members.swapAt(index, int(0..<(index + 1))) }
        return ("{" + members.map { space() + $0 + space() }.joined(separator: ",") + "}", expected)
    }

    mutating func document(count: Int) -> (json: String, records: [(json: String, expected: [String: String])]) {
        let records = (0..<count).map { record(uid: "u\($0)") }
        var members = ["\"inbox\":" + space() + "[" + records.map { space() + $0.json + space() }.joined(separator: ",") + "]"]
        if chance(30) { members.insert("\"version\":" + anyValue(), at: int(0..<2)) }
        return (space() + "{" + members.joined(separator: ",") + "}" + space(), records)
    }
}

@Suite("Inbox JSON reader against JSONSerialization")
struct InboxJSONScannerTests {
    func email(_ expected: [String: String]) -> [String] { RandomInboxWriter.fields.map { expected[$0]! } }
    func fields(_ record: InboxDocumentReader.Record) -> [String] {
        let email = record.email
        return [email.uid, email.from, email.to, email.subject, email.text, email.responseToUid, email.dateTime]
    }

    @Test("random documents: every value, and every record's own bytes")
    func readsRandomDocuments() throws {
        var writer = RandomInboxWriter(generator: SystemRandomNumberGenerator())
        for _ in 0..<400 {
            let (json, expected) = writer.document(count: writer.int(0..<6))
            let records = try InboxDocumentReader.read(Data(json.utf8), source: "s")
            #expect(records.count == expected.count, "\(json)")
            for (record, want) in zip(records, expected) {
                #expect(fields(record) == email(want.expected), "\(json)")
                #expect(record.raw == want.json, "\(json)")
                // The raw bytes are the record itself: Foundation reads the same values from them.
                let parsed = try JSONSerialization.jsonObject(with: Data(record.raw.utf8))
                let object = try #require(parsed as? [String: Any])
                #expect(object["subject"] as? String ?? "" == want.expected["subject"], "\(record.raw)")
            }
        }
    }

    /// Broken documents (truncated, or one byte changed): whatever JSONSerialization calls
    /// invalid, the reader calls invalid, and the other way round — except trailing commas,
    /// which JSONSerialization lets through and the reader, like jq, refuses.
    @Test("broken documents are refused exactly when JSONSerialization refuses them")
    func agreesOnBrokenDocuments() throws {
        var writer = RandomInboxWriter(generator: SystemRandomNumberGenerator())
        let replacements = Array("{}[]\",:\\ a0-.eE\u{1}".utf8)
        for round in 0..<2_000 {
            var bytes = Array(writer.document(count: writer.int(1..<4)).json.utf8)
            if round % 2 == 0 {
                bytes.removeLast(writer.int(1..<bytes.count))
            } else {
                bytes[writer.int(0..<bytes.count)] = replacements[writer.int(0..<replacements.count)]
            }
            let data = Data(bytes)
            let foundationAccepts = (try? JSONSerialization.jsonObject(with: data)) != nil
            var readerSyntaxError = false
            do {
                _ = try InboxDocumentReader.read(data, source: "s")
            } catch let error as ConnError {
                readerSyntaxError = error.message.contains("is not valid JSON") || error.message.contains("is empty")
            }
            let text = String(decoding: bytes, as: UTF8.self)
            // The one leniency of JSONSerialization that the reader does not share, as RFC 8259
            // (and jq) do not: a comma before a closing bracket or brace.
            if foundationAccepts, readerSyntaxError, text.range(of: #",\s*[\]}]"#, options: .regularExpression) != nil { continue }
            #expect(readerSyntaxError == !foundationAccepts, "\(text)")
        }
    }

    @Test(arguments: [
        (#"{"inbox":[{"uid":"1","subject":"a\u00e9\ud83d\ude00\/"}]}"#, "aé😀/"),
        (#"{"inbox":[{"uid":"1","subject":"first","subject":"second"}]}"#, "first"),
        (#"{"inbox":[{"uid":"1","su\u0062ject":"escaped key"}]}"#, "escaped key"),
        (#" {"x":{"inbox":1},"inbox":[ {"uid":"1","subject":"nested inbox is not the inbox"} ] } "#, "nested inbox is not the inbox"),
    ])
    func readsEdgeCases(_ json: String, _ subject: String) throws {
        let records = try InboxDocumentReader.read(Data(json.utf8), source: "s")
        #expect(records.map(\.email.subject) == [subject])
    }

    @Test(arguments: [
        (#"{"inbox":[{"uid":"1","subject":"\ud83d"}]}"#, "surrogate"),
        ("{\"inbox\":[{\"uid\":\"1\",\"subject\":\"tab\tinside\"}]}", "control character"),
        (#"{"inbox":[]} trailing"#, "expected the end of the document"),
        (#"{"inbox":[01]}"#, "expected ',' or ']'"),
        (#"{"inbox":[{"uid":"1"},]}"#, "expected a value"),
        (#"{"inbox":[],"inbox":[]}"#, "more than one \"inbox\""),
        (#"{"inbox":[1]}"#, "inbox[0] that is a number, not an object"),
        (#"{"inbox":[{"uid":"1","to":["a"]}]}"#, "inbox[0].to that is an array, not a string"),
        (#"{"inbox":[{"uid":"1","subject":5}],"#, "not valid JSON"),
    ])
    func refusesWithAReason(_ json: String, _ fragment: String) {
        let error = #expect(throws: ConnError.self) { try InboxDocumentReader.read(Data(json.utf8), source: "s") }
        #expect(error?.message.contains(fragment) == true, "\(error?.message ?? "")")
    }

    /// The reader skips plain text eight bytes at a time: a byte that needs a look, at any place
    /// of a word, must still be seen — an escape read, a control character or bad UTF-8 refused.
    @Test("a quote, backslash, control character or non-ASCII byte at every place of strings up to three words long")
    func everySpecialByteAtEveryPlace() throws {
        let specials: [[UInt8]] = [Array(#"\""#.utf8), Array(#"\\"#.utf8), Array(#"\u00e9"#.utf8), [0x01], [0x09], [0x1F], [0x7F],
                                   Array("é".utf8), Array("😀".utf8), [0xC3], [0xFF], [0xE2, 0x82]]
        for length in 0...24 {
            for place in 0...length {
                for special in specials {
                    var text = Array(repeating: UInt8(ascii: "a"), count: length)
                    text.insert(contentsOf: special, at: place)
                    let data = Data(#"{"inbox":[{"uid":"1","subject":""#.utf8 + text + #""}]}"#.utf8)
                    let expected = (try? JSONSerialization.jsonObject(with: data)) as? [String: [[String: String]]]
                    let read = try? InboxDocumentReader.read(data, source: "s")
                    #expect(read?.first?.email.subject == expected?["inbox"]?.first?["subject"], "\(special) at \(place) of \(length)")
                    #expect((read == nil) == (expected == nil), "\(special) at \(place) of \(length): reader \(read == nil ? "refused" : "read")")
                }
            }
        }
    }

    @Test func invalidUTF8IsRefused() {
        var bytes = Array(#"{"inbox":[{"uid":"1","subject":"ab"}]}"#.utf8)
        bytes.insert(0xC3, at: bytes.count - 5)  // a lead byte with no continuation
        let error = #expect(throws: ConnError.self) { try InboxDocumentReader.read(Data(bytes), source: "s") }
        #expect(error?.message.contains("not valid UTF-8") == true, "\(error?.message ?? "")")
    }

    @Test func deepNestingIsRefusedWithoutCrashing() {
        let json = #"{"inbox":[{"uid":"1","x":"# + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}]}"
        let error = #expect(throws: ConnError.self) { try InboxDocumentReader.read(Data(json.utf8), source: "s") }
        #expect(error?.message.contains("nested more than") == true, "\(error?.message ?? "")")
    }
}
