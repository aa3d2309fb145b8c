import ConnCore
import ConnOutbox
import Foundation

/// Turns `conn request`'s arguments into the request to store, or says exactly which input is
/// wrong. Nothing is written before the whole request is valid.
enum RequestDraft {
    /// The methods `conn request` queues: the ones that change something.
    static let methods = ["POST", "PUT", "PATCH", "DELETE"]

    /// Headers conn writes itself: the HTTP client sets them from the request.
    static let managedHeaders: Set<String> = ["host", "content-length", "transfer-encoding", "connection", "upgrade", "te", "trailer", "expect"]

    static func method(_ given: String?, hasBody: Bool) throws -> String {
        guard let given else {
            guard hasBody else {
                throw ConnError.usage("no method and no body: conn request sends a change",
                                      hint: "Give -X POST|PUT|PATCH|DELETE, or a body (--body, --body-file) for a POST.")
            }
            return "POST"
        }
        let method = given.uppercased()
        if method == "GET" || method == "HEAD" {
            throw ConnError.usage("-X \(method) reads and changes nothing: conn request queues changes to deliver once",
                                  hint: "Read it with `conn get URL`: offline-first, the last copy kept.")
        }
        guard methods.contains(method) else {
            throw ConnError.usage("-X '\(TerminalSanitizer.sanitize(given, keepNewlines: false))' is not a method conn request queues",
                                  hint: "Use one of \(methods.joined(separator: ", ")).")
        }
        return method
    }

    static func url(_ text: String) throws -> URL {
        if let problem = BackEndEndpoint.serverURLProblem(text) {
            throw ConnError.usage("URL '\(URLUserinfo.redacted(TerminalSanitizer.sanitize(text, keepNewlines: false)))' \(problem)",
                                  hint: "Give an http:// or https:// URL with a host, e.g. https://api.example.com/v1/items; credentials go in a header (-H 'Authorization: Bearer …').")
        }
        return URL(string: text)!
    }

    /// `Name: value` as curl's -H takes it. Names are HTTP tokens; values one line.
    static func headers(_ given: [String], secret extra: [String], keyHeader: String?) throws -> [StoredRequest.Header] {
        let secretNames = StoredRequest.secretHeaderNames.union(try extra.map { try name($0, option: "--secret-header").lowercased() })
        return try given.map { text in
            guard let colon = text.firstIndex(of: ":") else {
                throw ConnError.usage("-H '\(TerminalSanitizer.sanitize(text, keepNewlines: false))' is not 'Name: value'", hint: "Example: -H 'Content-Type: application/json'")
            }
            let headerName = try name(String(text[..<colon]), option: "-H")
            let value = text[text.index(after: colon)...].trimmingBlanks()
            guard !value.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else {
                throw ConnError.usage("-H \(headerName): the value holds a line break or NUL", hint: "A header value is one line.")
            }
            if managedHeaders.contains(headerName.lowercased()) {
                throw ConnError.usage("-H \(headerName): conn writes this header itself, from the request", hint: "Leave it out.")
            }
            if let keyHeader, headerName.caseInsensitiveCompare(keyHeader) == .orderedSame {
                throw ConnError.usage("-H \(headerName): conn sends its own idempotency key in this header, the same on every attempt",
                                      hint: "Leave it out, or give --no-idempotency-key to send a key of your own.")
            }
            return StoredRequest.Header(name: headerName, value: value, secret: secretNames.contains(headerName.lowercased()))
        }
    }

    /// An HTTP token (RFC 9110 5.6.2).
    static func name(_ text: String, option: String) throws -> String {
        let trimmed = text.trimmingBlanks()
        let allowed = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        guard !trimmed.isEmpty, trimmed.count <= 256, trimmed.allSatisfy(allowed.contains) else {
            throw ConnError.usage("\(option) '\(TerminalSanitizer.sanitize(text, keepNewlines: false))' is not a header name",
                                  hint: "A header name is letters, digits and !#$%&'*+-.^_`|~, e.g. X-Request-Source.")
        }
        return trimmed
    }

    /// `--expect 201,202` (repeatable): statuses from 100 to 599.
    static func expect(_ given: [String]) throws -> [Int]? {
        let parts = given.flatMap { $0.split(separator: ",") }.map { $0.trimmingBlanks() }.filter { !$0.isEmpty }
        guard !parts.isEmpty else { return given.isEmpty ? nil : [] }
        return try parts.map { part in
            guard let status = Int(part), (100...599).contains(status) else {
                throw ConnError.usage("--expect '\(TerminalSanitizer.sanitize(part, keepNewlines: false))' is not an HTTP status from 100 to 599", hint: "Example: --expect 201,202")
            }
            return status
        }
    }

    /// The body exactly as given: the argument's bytes, or a file's (`-`: standard input),
    /// at most `StoredRequest.maxBodyBytes`.
    static func body(text: String?, file: String?) throws -> Data? {
        if text != nil, file != nil { throw ConnError.usage("--body and --body-file both give the body", hint: "Give one of them.") }
        if let text {
            guard text.utf8.count <= StoredRequest.maxBodyBytes else { throw tooLarge("--body") }
            return Data(text.utf8)
        }
        guard let file else { return nil }
        guard let data = try InputFile.read(file == "-" ? nil : file, option: "--body-file", limit: StoredRequest.maxBodyBytes) else {
            throw tooLarge(file == "-" ? "standard input" : file)
        }
        return data
    }

    private static func tooLarge(_ source: String) -> ConnError {
        ConnError.dataError(.textTooLarge, "the body from \(source) is larger than the limit of \(StoredRequest.maxBodyBytes) bytes (10 MiB)",
                            hint: "Send a large file with a client made for uploads; the outbox keeps requests whole.")
    }

    /// A Content-Type when the user gave none: JSON for a body that is JSON, else bytes.
    static func contentType(for body: Data?, headers: [StoredRequest.Header]) -> StoredRequest.Header? {
        guard let body, !body.isEmpty, !headers.contains(where: { $0.name.caseInsensitiveCompare("Content-Type") == .orderedSame }) else { return nil }
        let isJSON = (try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])) != nil
        return StoredRequest.Header(name: "Content-Type", value: isJSON ? "application/json" : "application/octet-stream", secret: false)
    }
}
