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
        #expect(ConversationList.participants(names, fitting: 200) == names.joined(separator: ", "))
        #expect(ConversationList.participants(names, fitting: 40) == "ann@example.com, bob@example.com +2")
        #expect(ConversationList.participants(names, fitting: 25) == "ann@example.com +3")
        #expect(ConversationList.participants(names, fitting: 3) == "ann@example.com +3")
        #expect(ConversationList.participants([], fitting: 10) == "")
    }

    @Test("cut: within the columns, with the ellipsis")
    func cut() {
        #expect(ConversationList.cut("short", to: 10, ellipsis: "…") == "short")
        #expect(ConversationList.cut("0123456789abc", to: 10, ellipsis: "…") == "012345678…")
        #expect(ConversationList.cut("0123456789abc", to: 10, ellipsis: "...") == "0123456...")
        #expect(ConversationList.cut("0123456789abc", to: 0, ellipsis: "…").count == 2)
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
}
