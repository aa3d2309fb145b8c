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
}
