import ConnTestSupport
import Foundation
import Testing

@testable import ConnInbox

/// `inbox list` text at the terminal's width: participants elided with "+N", long fields cut with
/// an ellipsis (ASCII "..." where the locale is not UTF-8), no line wider than the terminal.
@Suite("inbox list fits the terminal")
struct ListLayoutTests {
    @Test("participants: as many as fit, the rest counted; one is always shown")
    func participants() {
        let names = ["ann@example.com", "bob@example.com", "cy@example.com", "dee@example.com"]
        #expect(FittedText.participants(names, fitting: 200) == names.joined(separator: ", "))
        #expect(FittedText.participants(names, fitting: 40) == "ann@example.com, bob@example.com +2")
        #expect(FittedText.participants(names, fitting: 25) == "ann@example.com +3")
        #expect(FittedText.participants(names, fitting: 3) == "ann@example.com +3")
        #expect(FittedText.participants([], fitting: 10) == "")
    }

    @Test("cut: within the columns, with the ellipsis")
    func cut() {
        #expect(FittedText.cut("short", to: 10, ellipsis: "…") == "short")
        #expect(FittedText.cut("0123456789abc", to: 10, ellipsis: "…") == "012345678…")
        #expect(FittedText.cut("0123456789abc", to: 10, ellipsis: "...") == "0123456...")
        #expect(FittedText.cut("0123456789abc", to: 0, ellipsis: "…").count == 2)
    }

    @Test("COLUMNS=60: no line of the list is wider; without a UTF-8 locale only ASCII")
    func narrowTerminal() async throws {
        let home = try TemporaryDirectory()
        try await ServerProcess.with(["--generate", "40"]) { url in
            let fetched = try await home.conn(["inbox", "fetch"], server: url)
            #expect(fetched.exitCode == 0)
            let narrow = try await home.conn(["inbox", "list", "--limit", "20"], server: url, env: ["COLUMNS": "60", "LANG": "C.UTF-8"])
            #expect(narrow.exitCode == 0)
            for line in narrow.standardOutput.split(separator: "\n") { #expect(line.count <= 60, "\(line)") }
            #expect(narrow.standardOutput.contains(" · uid "))
            let ascii = try await home.conn(["inbox", "list", "--limit", "20"], server: url, env: ["COLUMNS": "60", "LANG": "C"])
            let asciiText = ascii.standardOutput
            #expect(asciiText.unicodeScalars.allSatisfy { $0.isASCII }, "\(asciiText)")
            let thread = try await home.conn(["inbox", "thread", "1"], server: url, env: ["LANG": "C"])
            let threadText = thread.standardOutput
            #expect(threadText.unicodeScalars.allSatisfy { $0.isASCII } && threadText.contains(" -> "), "\(threadText)")
        }
    }

    @Test("wrap: at the last blank that fits, within a word longer than the line, nothing lost")
    func wrap() {
        #expect(FittedText.wrap("short", to: 10) == ["short"])
        #expect(FittedText.wrap("", to: 10) == [""])
        #expect(FittedText.wrap("the quick brown fox jumps", to: 10) == ["the quick", "brown fox", "jumps"])
        #expect(FittedText.wrap("https://example.com/a/very/long/path", to: 10) == ["https://ex", "ample.com/", "a/very/lon", "g/path"])
        #expect(FittedText.wrap("exactly10c next", to: 10) == ["exactly10c", "next"])
        let text = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt"
        let lines = FittedText.wrap(Substring(text), to: 17)
        #expect(lines.allSatisfy { $0.count <= 17 })
        #expect(lines.joined(separator: " ") == text)
    }

    @Test("inbox thread at COLUMNS=50: no line wider, every word of the text kept; --ascii in a UTF-8 locale prints ASCII only")
    func narrowThread() async throws {
        let home = try TemporaryDirectory()
        try await ServerProcess.with(["--generate", "40"]) { url in
            #expect(try await home.conn(["inbox", "fetch"], server: url).exitCode == 0)
            let wide = try await home.conn(["inbox", "thread", "1", "--json"], server: url)
            let messages = try #require(try wide.json()["messages"] as? [[String: Any]])
            let words = messages.compactMap { $0["text"] as? String }.flatMap { $0.split(whereSeparator: \.isWhitespace) }
            for arguments in [["inbox", "thread", "1"], ["inbox", "thread", "1", "--flat"]] {
                let narrow = try await home.conn(arguments, server: url, env: ["COLUMNS": "50", "LANG": "C.UTF-8"])
                #expect(narrow.exitCode == 0)
                for line in narrow.standardOutput.split(separator: "\n") { #expect(line.count <= 50, "\(arguments): \(line)") }
                let printed = Set(narrow.standardOutput.split(whereSeparator: { $0.isWhitespace || "│├└─".contains($0) }).map(String.init))
                let lost = words.map(String.init).filter { !printed.contains($0) }
                #expect(lost.isEmpty, "\(arguments): words lost in wrapping: \(lost.prefix(5))")
            }
            let ascii = try await home.conn(["inbox", "list", "--ascii"], server: url, env: ["LANG": "C.UTF-8"])
            #expect(ascii.standardOutput.unicodeScalars.allSatisfy { $0.isASCII } && ascii.standardOutput.contains(" - uid "), "\(ascii.standardOutput)")
        }
    }
}
