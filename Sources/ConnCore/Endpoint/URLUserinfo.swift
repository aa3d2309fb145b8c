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

    /// `text` with anything between `://` and the host's `@` replaced by `***`.
    public static func redacted(_ text: String) -> String {
        guard let schemeEnd = text.range(of: "://") else { return text }
        let rest = text[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        guard let at = rest[..<authorityEnd].lastIndex(of: "@") else { return text }
        return String(text[..<schemeEnd.upperBound]) + "***" + String(rest[at...])
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

    /// The end of a sentence about a URL that carries userinfo.
    public static let problem = "contains a user name or password (user:password@), which conn neither sends nor keeps"
    public static let hint = "Leave 'user:password@' out of the URL; give the server a token instead (CONN_TOKEN, or `token:` in the config file)."
}
