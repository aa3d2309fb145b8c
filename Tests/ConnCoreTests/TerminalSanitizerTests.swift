import ConnCore
import Testing

@Suite("Terminal sanitiser")
struct TerminalSanitizerTests {
    @Test(arguments: [
        ("plain \u{1B}[31mred\u{1B}[0m text", "plain red text"),  // CSI colour
        ("\u{1B}]0;owned title\u{07}subject", "subject"),  // OSC window title, BEL-terminated
        ("\u{1B}]8;;http://evil\u{1B}\\link\u{1B}]8;;\u{1B}\\", "link"),  // OSC 8 hyperlink, ST-terminated
        ("a\u{1B}P+q544e\u{1B}\\b", "ab"),  // DCS request
        ("clear\u{1B}[2J\u{1B}[H", "clear"),
        ("x\u{1B}(0y", "xy"),  // charset designation (ESC with intermediate)
        ("c1 \u{9B}31mcsi", "c1 csi"),  // 8-bit CSI
        ("tab\tand\nnewline", "tab\tand\nnewline"),
        ("bell\u{07}", "bell\u{FFFD}"),
        ("back\u{08}space", "back\u{FFFD}space"),
        ("carriage\rreturn", "carriage\u{FFFD}return"),
        ("bidi \u{202E}txt.exe", "bidi \u{FFFD}txt.exe"),
        ("marks \u{200E}\u{200F}\u{061C}end", "marks \u{FFFD}\u{FFFD}\u{FFFD}end"),  // LRM, RLM, ALM
        ("line\u{2028}para\u{2029}end", "line\u{FFFD}para\u{FFFD}end"),  // Unicode separators
        ("nul\u{0}after", "nul\u{2400}after"),  // NUL shown, not a field end
        ("émoji ✉️ ok", "émoji ✉️ ok"),
        ("truncated \u{1B}[", "truncated "),
        ("\u{1B}", ""),
        ("printable ASCII ~!@#$%^&*()_+{}|:\"<>? is kept as it is", "printable ASCII ~!@#$%^&*()_+{}|:\"<>? is kept as it is"),
        ("delete\u{7F}", "delete\u{FFFD}"),  // just past printable ASCII
        ("unit\u{1F}separator", "unit\u{FFFD}separator"),  // just before it
    ])
    func removesControlSequences(_ input: String, _ expected: String) {
        #expect(TerminalSanitizer.sanitize(input) == expected)
    }

    @Test func newlinesCanBeFolded() {
        #expect(TerminalSanitizer.sanitize("one\ntwo", keepNewlines: false) == "one two")
    }

    /// Property: whatever comes in, nothing that a terminal interprets comes out.
    @Test func outputNeverCarriesControlCharacters() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [Unicode.Scalar] = ["\u{1B}", "[", "]", "P", "\\", "\u{07}", "\u{9B}", "\u{9C}", "\u{9D}", "a", "0", ";", "m", "\n", "\t", "\r", "\u{202E}", "é", "\u{0}", "\u{7F}", "\u{200F}", "\u{061C}", "\u{2028}", "\u{2066}"]
        for _ in 0..<2000 {
            var input = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...40, using: &generator) {
                input.append(alphabet.randomElement(using: &generator)!)
            }
            let output = TerminalSanitizer.sanitize(String(input))
            let bad = output.unicodeScalars.filter {
                ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value)
                    || (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value)
                    || [0x200E, 0x200F, 0x061C, 0x2028, 0x2029].contains($0.value)
            }
            #expect(bad.isEmpty, "input \(String(input).debugDescription) gave \(output.debugDescription)")
        }
    }
}
