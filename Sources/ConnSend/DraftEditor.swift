import ConnCore
import Foundation

/// `conn send` on a terminal without --text or --file: the text is written in the user's editor,
/// as git, gh and himalaya do. The editor gets a private (0600) temporary file whose commented
/// lines say what is being written (To, Subject, and the message answered, quoted); what is left
/// without those lines is the text. The file is removed afterwards, whatever happens.
struct DraftEditor {
    /// The message being answered, from the inbox cache.
    struct Original {
        var uid: String
        var from: String
        var subject: String
        var text: String
    }

    var to: String
    var subject: String
    var replyTo: String?
    var original: Original?
    var environment: [String: String]

    /// The file's text before editing: an empty first line for the message, then the comments.
    var template: String {
        var lines = ["", "# Write the message above. Lines starting with '#' are left out; an empty message sends nothing.",
                     "# To: \(to)", "# Subject: \(subject)"]
        if let replyTo {
            if let original {
                lines.append("# In reply to \(original.uid), from \(original.from): \(original.subject)")
                lines += original.text.lines().prefix(200).map { "# > " + $0 }
            } else {
                lines.append("# In reply to \(replyTo) (not in the local inbox cache: `conn inbox fetch` to quote it)")
            }
        }
        return lines.map { TerminalSanitizer.sanitize($0, keepNewlines: false) }.joined(separator: "\n") + "\n"
    }

    /// The text the user wrote: the file without its comment lines, trailing blank lines dropped.
    /// Empty (or blank) means nothing is to be sent.
    static func text(from edited: String) -> String {
        var lines = edited.lines().filter { !$0.hasPrefix("#") }
        while let last = lines.last, last.trimmingCharacters(in: .whitespaces).isEmpty { lines.removeLast() }
        while let first = lines.first, first.trimmingCharacters(in: .whitespaces).isEmpty { lines.removeFirst() }
        return lines.joined(separator: "\n")
    }

    /// Writes the template, runs the editor on the terminal, and returns the text written (empty:
    /// nothing to send). Throws when the file cannot be made or the editor fails.
    func edit() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("conn-message-\(UUID().uuidString).txt").path
        try ExternalEditor.createPrivateFile(path, text: template)
        defer { unlink(path) }
        let editor = ExternalEditor(environment: environment)
        try editor.edit(path, consequence: "nothing was sent")
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConnError.unavailable(.editorFailed, "the editor (\(editor.command)) left no file at \(path): nothing was sent")
        }
        guard data.count <= DraftReader.maximumBytes else {
            throw ConnError.dataError(.textTooLarge, "the message written in the editor is larger than the limit of \(DraftReader.maximumBytes) bytes (10 MiB): nothing was sent")
        }
        guard let edited = String(data: data, encoding: .utf8) else {
            throw ConnError.dataError(.notUTF8, "the message written in the editor is not UTF-8")
        }
        return Self.text(from: edited)
    }
}
