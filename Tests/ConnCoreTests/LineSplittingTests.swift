import ConnCore
import Testing

@Suite("lines of a text file")
struct LineSplittingTests {
    @Test("LF and CRLF line ends cut alike; empty lines kept, so line numbers hold; a lone CR stays in its line")
    func linesEndingEitherWay() {
        #expect("a\nb\n".lines() == ["a", "b", ""])
        #expect("a\r\nb\r\n".lines() == ["a", "b", ""])
        #expect("a\r\n\r\nc".lines() == ["a", "", "c"])
        #expect("mixed\nends\r\nhere".lines() == ["mixed", "ends", "here"])
        #expect("a\rb".lines() == ["a\rb"])
        #expect("".lines() == [""])
        // "\r\n" is one Character: splitting on "\n" alone leaves the file whole.
        #expect("a\r\nb".split(separator: "\n", omittingEmptySubsequences: false).count == 1)
    }

    @Test("cut by bytes, the lines are those a split by Character gives: random texts of CR, LF, accents and combining marks, whole and as substrings")
    func sameAsSplittingByCharacter() {
        let pieces = ["a", "\r", "\n", "\r\n", "é", "e\u{301}", "\u{301}", " ", "日本", "👍🏽"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0..<12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let byCharacter = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
            #expect(text.lines() == byCharacter, "\(text.debugDescription)")
            let inner = text.dropFirst()
            #expect(inner.lines() == inner.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }, "\(inner.debugDescription)")
        }
        #expect("a\r\r\nb".lines() == ["a\r", "b"])
    }
}
