import ConnCore
import Testing

@testable import ConnInbox

/// A conversation's summary takes bytes where the text is ASCII and Characters elsewhere: both
/// must give what the Character-by-Character definitions give, on the texts where they could
/// part (a "\r\n" or a combining mark at the cut, whitespace that is not ASCII).
@Suite("Conversation summary text")
struct ConversationSummaryTextTests {
    static let long = String(repeating: "abcdefghij", count: 12)  // 120 ASCII Characters

    static let snippetTexts: [String] = [
        "", "short", long, long + "k",
        String(long.dropLast()) + "\r\nrest",  // "\r\n" is the 120th Character
        long + "\u{301}tail",  // a combining mark joins the 120th Character
        String(long.dropLast()) + "e\u{301}" + "more",
        "é" + long, long + "🇫🇷🇩🇪",
        String(repeating: "\r\n", count: 130),
    ]

    @Test("a snippet is the first 120 Characters", arguments: snippetTexts)
    func snippet(text: String) {
        #expect(ConversationRecord.snippet(of: text) == String(text.prefix(120)))
    }

    static let addressLists: [String] = [
        "", "a@x", "a@x,b@y", " a@x , b@y ,", ",,a@x,,", "ann <a@x>, bob <b@y>",
        "á@x,b@y", ",\u{301}a@x",  // a combining mark after a comma makes it no separator
    ]

    @Test("a to field splits at commas as Characters", arguments: addressLists)
    func addresses(text: String) {
        #expect(ConversationRecord.addresses(in: text) == text.split(separator: ","))
    }

    static let padded: [String] = [
        "", "   ", "a", " a ", "\t\r\n a@x \r\n", "\u{A0}a@x\u{3000}", " \u{301}a", "a \u{301}", "\r\n",
    ]

    @Test("trimming takes whitespace Characters off both ends", arguments: padded)
    func trimming(text: String) {
        var start = text.startIndex, end = text.endIndex
        while start < end, text[start].isWhitespace { text.formIndex(after: &start) }
        while end > start, text[text.index(before: end)].isWhitespace { text.formIndex(before: &end) }
        #expect(Substring(text).trimmingWhitespace() == text[start..<end])
        #expect(text.trimmingWhitespace() == text[start..<end])
    }
}
