import ConnCore
import ConnOutbox
import ConnProtocol
import Foundation

/// Turns `conn send`'s arguments into a draft, or says exactly which input is wrong. Nothing is
/// written before the whole draft is valid.
enum DraftReader {
    /// `to` values may each hold several addresses separated by commas.
    static func recipients(_ values: [String]) throws -> String {
        let addresses = values.flatMap { $0.split(separator: ",") }.map { $0.trimmingBlanks() }.filter { !$0.isEmpty }
        guard !addresses.isEmpty else { throw ConnError.usage("--to names no address", hint: "Example: --to ada@example.com") }
        for address in addresses where !EmailAddress.isValid(address) {
            throw ConnError.usage(
                "--to '\(TerminalSanitizer.sanitize(address, keepNewlines: false))' is not a valid e-mail address",
                hint: "An address is local@domain.tld: letters, digits and ._%+- before the @, a domain with a dot after it.")
        }
        return addresses.joined(separator: ", ")
    }

    static func subject(_ value: String) throws -> String {
        let trimmed = value.trimmingBlanks()
        guard !trimmed.isEmpty else { throw ConnError.usage("--subject is empty", hint: "Give the message a subject.") }
        guard !trimmed.contains(where: { $0.isNewline }) else { throw ConnError.usage("--subject must be one line") }
        return trimmed
    }

    static func replyTo(_ value: String?) throws -> String? {
        guard let value else { return nil }
        let trimmed = value.trimmingBlanks()
        guard !trimmed.isEmpty, !trimmed.contains(where: { $0.isWhitespace || $0.isNewline }) else {
            throw ConnError.usage("--reply-to '\(TerminalSanitizer.sanitize(value, keepNewlines: false))' is not a message uid", hint: "`conn inbox list` shows the uids.")
        }
        // As long as a uid the client accepts from a server, no longer (a uid is an identifier).
        guard trimmed.utf8.count <= MessageAccepted.maximumUidLength else {
            throw ConnError.usage("--reply-to is \(trimmed.utf8.count) bytes long: a message uid is at most \(MessageAccepted.maximumUidLength)",
                                  hint: "`conn inbox list` shows the uids.")
        }
        return trimmed
    }

    /// The body: --text, --file (`-` for stdin), stdin when it is not a terminal, or, on a
    /// terminal, what `editor` returns (nil: no editor may be opened here).
    static func text(text: String?, file: String?, standardInputIsTerminal: Bool, editor: (() throws -> String)? = nil) throws -> String {
        switch (text, file) {
        case (let text?, nil):
            return text
        case (nil, let path?):
            return try read(path == "-" ? nil : path)
        case (nil, nil):
            guard !standardInputIsTerminal else {
                guard let editor else { throw ConnError.usage("no text: give it with --text, --file PATH, or on standard input") }
                return try editor()
            }
            return try read(nil)
        case (_?, _?):
            throw ConnError.usage("give the text with --text or --file, not both")
        }
    }

    /// Larger bodies are refused before anything is queued.
    static let maximumBytes = 10 * 1024 * 1024

    private static func read(_ path: String?) throws -> String {
        let name = path.map { "--file \($0)" } ?? "standard input"
        guard let data = try InputFile.read(path, option: "--file", limit: maximumBytes) else {
            throw ConnError.dataError(.textTooLarge, "the text from \(name) is larger than the limit of \(maximumBytes) bytes (10 MiB)",
                                      hint: "Nothing was queued. Send a shorter text, or put large content somewhere the recipient can fetch it.")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConnError.dataError(.notUTF8, "the text from \(name) is not UTF-8")
        }
        return text
    }
}
