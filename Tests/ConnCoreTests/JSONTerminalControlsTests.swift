import ConnCore
import Foundation
import Testing

/// `--json` is read on terminals too: what JSONEncoder leaves raw (DEL, C1, bidi controls, the
/// line separators) is written as `\u` escapes, and the document still parses to the same text.
@Suite("JSON output on a terminal")
struct JSONTerminalControlsTests {
    struct Payload: Encodable {
        var subject: String
    }

    static let hostile = "a\u{7F}b\u{9B}31m\u{85}\u{9F}\u{80} \u{202E}evil\u{202A}\u{2066}\u{2069}\u{200E}\u{200F}\u{061C} line\u{2028}para\u{2029} \u{1B}[2J"

    @Test("each scalar a terminal acts on is escaped; the parsed value is the text given", arguments: [false, true])
    func escapedAndEqual(pretty: Bool) throws {
        let json = try JSONOutput.encode(Payload(subject: Self.hostile), pretty: pretty)
        let raw = json.unicodeScalars.filter { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value)
            || [0x061C, 0x200E, 0x200F, 0x2028, 0x2029].contains($0.value) || (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) }
        #expect(raw.isEmpty, "\(raw.map { String($0.value, radix: 16) })")
        for escape in [#"\u007f"#, #"\u009b"#, #"\u0085"#, #"\u202e"#, #"\u2066"#, #"\u2028"#, #"\u061c"#, #"\u001b"#] {
            #expect(json.contains(escape), "\(escape) in \(json)")
        }
        let parsed = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect(parsed?["subject"] as? String == Self.hostile)
    }

    @Test("text conn writes itself is left as it is: em dash, ellipsis, arrows, quotes, accents, emoji")
    func ordinaryTextUntouched() throws {
        let text = "café — “quoted” … → ‘x’ 🙂 € \u{2030} \u{2070}"
        let json = try JSONOutput.encode(Payload(subject: text))
        #expect(json.contains(text), "\(json)")
    }
}
