import Foundation

/// Splits a REPL line into words the way a POSIX shell does, without expansions: blanks separate
/// words; 'single quotes' keep everything literally; "double quotes" keep everything but `\"`,
/// `\\`, `\$` and `` \` ``; a backslash outside quotes takes the next character literally; `#` at
/// the start of a word begins a comment.
public enum ShellTokenizer {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// A quote opened at this character offset is never closed.
        case unterminatedQuote(Character, offset: Int)
        /// The line ends with a lone backslash.
        case trailingBackslash

        public var description: String {
            switch self {
            case .unterminatedQuote(let quote, let offset):
                "unterminated \(quote == "'" ? "single" : "double") quote (opened at column \(offset + 1)): close it with \(quote)"
            case .trailingBackslash:
                "the line ends with a backslash: nothing follows it to escape"
            }
        }
    }

    /// The words of `line`.
    public static func split(_ line: String) throws(Failure) -> [String] {
        try words(line).map(\.text)
    }

    /// A word with where it starts in the line (for completion).
    public struct Word: Equatable, Sendable {
        public var text: String
        /// Offset of the word's first character in the line, in characters.
        public var start: Int
    }

    public static func words(_ line: String) throws(Failure) -> [Word] {
        var words: [Word] = []
        var current = ""
        var start: Int?
        var characters = Array(line).enumerated().makeIterator()
        func finish() {
            if let begin = start { words.append(Word(text: current, start: begin)) }
            current = ""
            start = nil
        }
        while let (offset, character) = characters.next() {
            switch character {
            case " ", "\t", "\n", "\r":
                finish()
            case "#" where start == nil:
                return words
            case "\\":
                start = start ?? offset
                guard let (_, next) = characters.next() else { throw .trailingBackslash }
                current.append(next)
            case "'":
                start = start ?? offset
                var closed = false
                while let (_, next) = characters.next() {
                    if next == "'" { closed = true; break }
                    current.append(next)
                }
                if !closed { throw .unterminatedQuote("'", offset: offset) }
            case "\"":
                start = start ?? offset
                var closed = false
                while let (_, next) = characters.next() {
                    if next == "\"" { closed = true; break }
                    if next == "\\" {
                        guard let (_, escaped) = characters.next() else { break }
                        if !["\"", "\\", "$", "`"].contains(escaped) { current.append("\\") }
                        current.append(escaped)
                        continue
                    }
                    current.append(next)
                }
                if !closed { throw .unterminatedQuote("\"", offset: offset) }
            default:
                start = start ?? offset
                current.append(character)
            }
        }
        finish()
        return words
    }

    /// `text` with `next` appended as the next line of an unfinished one: a trailing backslash
    /// joins the lines (it and the newline vanish, as in a shell); inside an open quote the
    /// newline is kept.
    public static func continuing(_ text: String, with next: String) -> String {
        if case .trailingBackslash? = failure(of: text) { return String(text.dropLast()) + next }
        return text + "\n" + next
    }

    /// Whether `text` needs another line: a quote is open or it ends with a lone backslash.
    public static func isUnfinished(_ text: String) -> Bool {
        failure(of: text) != nil
    }

    private static func failure(of text: String) -> Failure? {
        do {
            _ = try words(text)
            return nil
        } catch {
            return error
        }
    }

    /// `word` quoted so that `split` gives it back unchanged (for completions and history).
    public static func quote(_ word: String) -> String {
        let plain = word.allSatisfy { $0.isLetter || $0.isNumber || "-_./:@=,+%".contains($0) }
        if plain && !word.isEmpty { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
