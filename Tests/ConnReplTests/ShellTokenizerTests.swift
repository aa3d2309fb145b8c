import ConnTestSupport
@testable import ConnRepl
import Testing

@Suite("REPL tokenizer")
struct ShellTokenizerTests {
    @Test("words as a POSIX shell splits them", arguments: [
        ("probe example.com:443", ["probe", "example.com:443"]),
        ("  send   --to a@b.example  ", ["send", "--to", "a@b.example"]),
        (#"send --subject 'hello world' --text "it's \"fine\"""#, ["send", "--subject", "hello world", "--text", #"it's "fine""#]),
        (#"a\ b c"#, ["a b", "c"]),
        (#"'a'"b"c"#, ["abc"]),
        (#""\$HOME \n""#, [#"$HOME \n"#]),
        ("''", [""]),
        ("x '' y", ["x", "", "y"]),
        ("inbox list # newest first", ["inbox", "list"]),
        ("a#b", ["a#b"]),
        ("", []),
        ("\t", []),
        ("'#not a comment'", ["#not a comment"]),
        ("héllo 'wörld ✓'", ["héllo", "wörld ✓"]),
    ])
    func splits(line: String, expected: [String]) throws {
        #expect(try ShellTokenizer.split(line) == expected)
    }

    @Test("an unterminated quote or a trailing backslash is an error naming it, not a crash")
    func errors() {
        #expect(throws: ShellTokenizer.Failure.unterminatedQuote("'", offset: 12)) { try ShellTokenizer.split("send --text 'oops") }
        #expect(throws: ShellTokenizer.Failure.unterminatedQuote("\"", offset: 2)) { try ShellTokenizer.split(#"a "b\""#) }
        #expect(throws: ShellTokenizer.Failure.trailingBackslash) { try ShellTokenizer.split(#"probe \"#) }
        #expect(ShellTokenizer.Failure.unterminatedQuote("'", offset: 12).description.contains("column 13"))
    }

    @Test("a line with an open quote or a trailing backslash continues: the quote keeps the newline, the backslash joins")
    func continuation() throws {
        #expect(ShellTokenizer.isUnfinished("send --text 'two"))
        #expect(ShellTokenizer.isUnfinished(#"probe \"#))
        #expect(!ShellTokenizer.isUnfinished("send --text 'done'"))
        #expect(!ShellTokenizer.isUnfinished(#"a\\"#))  // an escaped backslash ends nothing
        let quoted = ShellTokenizer.continuing("send --text 'two", with: "lines'")
        #expect(try ShellTokenizer.split(quoted) == ["send", "--text", "two\nlines"])
        let joined = ShellTokenizer.continuing(#"probe --no-internet \"#, with: "example.com:443")
        #expect(try ShellTokenizer.split(joined) == ["probe", "--no-internet", "example.com:443"])
        let glued = ShellTokenizer.continuing(#"probe exam\"#, with: "ple.com:443")
        #expect(try ShellTokenizer.split(glued) == ["probe", "example.com:443"])
    }

    @Test("words know where they start (for completion)")
    func offsets() throws {
        #expect(try ShellTokenizer.words("  ab 'c d'") == [.init(text: "ab", start: 2), .init(text: "c d", start: 5)])
    }

    /// Property: any list of words, quoted, splits back to itself.
    @Test("quote then split gives the words back (2,000 random cases)")
    func roundTrip() throws {
        var generator = SeededGenerator(seed: 0xC0FFEE)
        let alphabet = Array("ab -_'\"\\$`#\t\n=@./é✓*?;&|()<>{}~!")
        for _ in 0..<2_000 {
            let words = (0..<Int.random(in: 0...5, using: &generator)).map { _ in
                String((0..<Int.random(in: 0...8, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
            }
            let line = words.map(ShellTokenizer.quote).joined(separator: " ")
            #expect(try ShellTokenizer.split(line) == words, "line: \(line)")
        }
    }

    /// Fuzz: random lines never crash; they split or fail with one of the two named errors.
    @Test("random lines never crash (20,000 cases and a corpus)")
    func fuzz() {
        var generator = SeededGenerator(seed: 42)
        let alphabet = Array("a '\"\\#\t \n$`\u{0}\u{1B}é")
        var corpus = ["'", "\"", "\\", "\"\\", "'\\'", "\"'\"'", "\\\\\\", "#'", "a\\\n", "\"\\\"", "\u{1B}[31m'", "'''", "\"\"\""]
        for _ in 0..<20_000 {
            corpus.append(String((0..<Int.random(in: 0...12, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }))
        }
        for line in corpus {
            do {
                _ = try ShellTokenizer.split(line)
            } catch {
                #expect(error == .trailingBackslash || { if case .unterminatedQuote = error { true } else { false } }())
            }
        }
    }
}
