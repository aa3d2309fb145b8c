import Foundation

/// A user name or password written into a URL (`http://alice:pw@host/`).
///
/// conn refuses such URLs everywhere it takes one (server, resources, probe targets, --url):
/// it authenticates with a bearer token, so the password would not be used, and a URL is printed
/// in output, errors and logs and stored in the database. Messages about a refused URL show it
/// with the userinfo replaced by `***`, so the password is not echoed either.
public enum URLUserinfo {
    public static func isPresent(in text: String) -> Bool {
        guard let components = URLComponents(string: text) else { return false }
        return components.user != nil || components.password != nil
    }

    /// `text` with anything between `://` and the host's `@` replaced by `***`; without a
    /// scheme, a `user:password@` before the host (`alice:pw@host:8080`) likewise.
    public static func redacted(_ text: String) -> String {
        guard let schemeEnd = text.range(of: "://") else { return redactedWithoutScheme(text) }
        let rest = text[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        guard let at = rest[..<authorityEnd].lastIndex(of: "@") else { return text }
        return String(text[..<schemeEnd.upperBound]) + "***" + String(rest[at...])
    }

    /// Whether a word without a scheme starts with `user:password@` (a colon before the last
    /// `@` of its authority): `alice:pw@host:8080` does, an e-mail address does not.
    public static func hasPasswordWithoutScheme(_ word: String) -> Bool {
        passwordEnd(inSchemelessWord: word) != nil
    }

    /// Where the `@` that ends a `user:password` at the start of `word` is; nil when there is none.
    private static func passwordEnd(inSchemelessWord word: String) -> String.Index? {
        let authorityEnd = word.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? word.endIndex
        guard let at = word[..<authorityEnd].lastIndex(of: "@"), word[..<at].contains(":") else { return nil }
        return at
    }

    private static func redactedWithoutScheme(_ text: String) -> String {
        guard let at = passwordEnd(inSchemelessWord: text) else { return text }
        return "***" + text[at...]
    }

    /// A line a person typed (a REPL history entry): the userinfo of every URL replaced, and
    /// every word that starts with `user:password@` too.
    public static func redactingSecrets(inLine line: String) -> String {
        let urlsDone = redactingEveryURL(in: line)
        guard urlsDone.contains("@") else { return urlsDone }
        var result = ""
        var word = ""
        for character in urlsDone {
            if character.isWhitespace || character == "'" || character == "\"" {
                result += redactedWithoutScheme(word) + String(character)
                word = ""
            } else {
                word.append(character)
            }
        }
        return result + redactedWithoutScheme(word)
    }

    /// Free text (a stored error message, a log line) with the userinfo of every URL in it
    /// replaced by `***`; an authority also ends at white space here.
    public static func redactingEveryURL(in text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let schemeEnd = rest.range(of: "://") {
            result += rest[..<schemeEnd.upperBound]
            rest = rest[schemeEnd.upperBound...]
            let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" || $0.isWhitespace } ?? rest.endIndex
            if let at = rest[..<authorityEnd].lastIndex(of: "@") {
                result += "***"
                rest = rest[at...]
            }
        }
        return result + rest
    }

    /// The end of a sentence about a URL that carries userinfo. Worded without a `word:word@`:
    /// every message is redacted on its way out, and that would turn into `***@` (it did).
    public static let problem = "contains a user name or password (user:password before an @), which conn neither sends nor keeps"
    public static let hint = "Leave the user name and password (and their @) out of the URL; give the server a token instead (CONN_TOKEN, or `token:` in the config file)."
}
