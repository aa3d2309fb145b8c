import ConnCore
import Foundation
import Testing

@Suite("trimming blanks as Foundation's .whitespaces does")
struct BlankTrimmingTests {
    @Test("spaces, tabs, Unicode's space separators and the zero-width space go; line breaks and everything else stay; the same as trimmingCharacters(in: .whitespaces)",
          arguments: [
              "", " ", "\t\t", "5s", "  5s ", "\t2m\t", "\u{00A0}1h\u{3000}", "\u{2003}a b\u{2009}",
              "\n5s\n", " x\r\n", "\u{200B}zero-width\u{200B}", "\u{180E}mongolian\u{2028}", "\u{1680}\u{205F}\u{202F}ogham\u{200A}", " e\u{301} ", "  http://proxy:3128  ", "🙂 ",
          ])
    func sameAsFoundation(_ text: String) {
        #expect(text.trimmingBlanks() == text.trimmingCharacters(in: .whitespaces), "\(Array(text.unicodeScalars))")
        #expect(text[...].trimmingBlanks() == text.trimmingCharacters(in: .whitespaces))
    }

    @Test("the durations, proxies and lists read with it keep their meaning")
    func readersKeepTheirMeaning() {
        #expect(DurationParser.parse(" \t5s\u{00A0}") == .seconds(5))
        #expect(DurationParser.parse("5s\n") == nil)
        #expect(DurationParser.parse("   ") == nil)
    }
}
