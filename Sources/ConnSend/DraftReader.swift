import ConnCore
import ConnOutbox
import ConnProtocol
import Foundation

/// Turns `conn send`'s arguments into a draft, or says exactly which input is wrong. Nothing is
/// written before the whole draft is valid.
enum DraftReader {
    /// `to` values may each hold several addresses separated by commas.
    static func recipients(_ values: [String]) throws -> String {
        let addresses = values.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !addresses.isEmpty else { throw ConnError.usage("--to names no address", hint: "Example: --to ada@example.com") }
        for address in addresses where !EmailAddress.isValid(address) {
            throw ConnError.usage(
                "--to '\(TerminalSanitizer.sanitize(address, keepNewlines: false))' is not a valid e-mail address",
                hint: "An address is local@domain.tld: letters, digits and ._%+- before the @, a domain with a dot after it.")
        }
        return addresses.joined(separator: ", ")
    }

    static func subject(_ value: String) throws -> String {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw ConnError.usage("--subject is empty", hint: "Give the message a subject.") }
        guard !trimmed.contains(where: { $0.isNewline }) else { throw ConnError.usage("--subject must be one line") }
        return trimmed
    }

    static func replyTo(_ value: String?) throws -> String? {
        guard let value else { return nil }
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, !trimmed.contains(where: { $0.isWhitespace || $0.isNewline }) else {
            throw ConnError.usage("--reply-to '\(TerminalSanitizer.sanitize(value, keepNewlines: false))' is not a message uid", hint: "`conn inbox list` shows the uids.")
        }
        return trimmed
    }

    /// The body: --text, --file (`-` for stdin), or stdin when it is not a terminal.
    static func text(text: String?, file: String?, standardInputIsTerminal: Bool) throws -> String {
        switch (text, file) {
        case (let text?, nil):
            return text
        case (nil, let path?):
            return try read(path == "-" ? nil : path)
        case (nil, nil):
            guard !standardInputIsTerminal else {
                throw ConnError.usage("no text: give it with --text, --file PATH, or on standard input")
            }
            return try read(nil)
        case (_?, _?):
            throw ConnError.usage("give the text with --text or --file, not both")
        }
    }

    /// Larger bodies are refused before anything is queued.
    static let maximumBytes = 10 * 1024 * 1024

    /// Reads until end of file or `limit` bytes, whichever comes first, in 64 KiB reads.
    static func readCapped(_ handle: FileHandle, limit: Int, name: String) throws -> Data {
        var data = Data()
        while data.count < limit {
            let chunk: Data?
            do {
                chunk = try handle.read(upToCount: min(64 * 1024, limit - data.count))
            } catch {
                throw ConnError(code: .noInput, message: "\(name) cannot be read: \(error.localizedDescription)", exitStatus: .noInput)
            }
            guard let chunk, !chunk.isEmpty else { break }
            data.append(chunk)
        }
        return data
    }

    private static func read(_ path: String?) throws -> String {
        let name = path ?? "standard input"
        let handle: FileHandle
        if let path {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw ConnError(code: .noInput, message: "--file \(path) does not exist", exitStatus: .noInput)
            }
            guard !isDirectory.boolValue, let opened = FileHandle(forReadingAtPath: path) else {
                throw ConnError(code: .noInput, message: "--file \(path) cannot be read", hint: "Check that it is a file you may read.", exitStatus: .noInput)
            }
            handle = opened
        } else {
            handle = FileHandle.standardInput
        }
        // One byte past the limit is enough to know it is too large: never read a whole
        // `yes |` or a 3 GB pipe into memory.
        let data = try readCapped(handle, limit: maximumBytes + 1, name: name)
        if path != nil { try? handle.close() }
        guard data.count <= maximumBytes else {
            throw ConnError.dataError(.textTooLarge, "the text from \(name) is larger than the limit of \(maximumBytes) bytes (10 MiB)",
                                      hint: "Nothing was queued. Send a shorter text, or put large content somewhere the recipient can fetch it.")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConnError.dataError(.notUTF8, "the text from \(name) is not UTF-8")
        }
        return text
    }
}
