import Foundation

/// A usage error as conn says every error: "conn: error: what happened" and "conn: what to do"
/// lines, from ArgumentParser's full message ("Error: …", "Help: …", "Usage: …", "See '…' for
/// more information."). An unknown command says so once, with its suggestion, instead of
/// ArgumentParser's "Unexpected argument" and conn's own line both.
public enum UsageErrorText {
    /// `fullMessage`: ArgumentParser's; `unknownCommand`: conn's line for a first word that is
    /// no command (it replaces the error line).
    public static func format(_ fullMessage: String, unknownCommand: String?) -> String {
        var error: String?
        var help: [String] = []
        var usage: String?
        var more: String?
        var other: [String] = []
        for rawLine in fullMessage.split(separator: "\n", omittingEmptySubsequences: true) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if let rest = line.dropping(prefix: "Error:") {
                error = rest
            } else if let rest = line.dropping(prefix: "Help:") {
                help.append(rest)
            } else if let rest = line.dropping(prefix: "Usage:") {
                usage = rest
            } else if line.hasPrefix("See '"), line.hasSuffix("' for more information.") {
                more = String(line.dropFirst("See '".count).dropLast("' for more information.".count))
            } else if usage == nil, help.isEmpty {
                error = error.map { $0 + " " + line } ?? line  // a message without the prefix, or wrapped
            } else {
                other.append(line)
            }
        }
        var lines: [String] = []
        if let unknownCommand {
            lines.append("error: " + unknownCommand)
        } else {
            lines.append("error: " + lowercasingFirstWord(error ?? ""))
        }
        lines += help.map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        lines += other
        if let usage {
            lines.append("usage: \(usage)" + (more.map { " (see '\($0)')" } ?? ""))
        } else if let more {
            lines.append("see '\(more)'")
        }
        return lines.map { "conn: " + $0 }.joined(separator: "\n") + "\n"
    }

    /// "Unknown option '--x'" → "unknown option '--x'"; a message that starts with an option, a
    /// quote or an acronym ("URL …") is left as it is.
    static func lowercasingFirstWord(_ text: String) -> String {
        guard let first = text.first, first.isUppercase else { return text }
        let word = text.prefix { $0 != " " }
        guard word.dropFirst().allSatisfy({ !$0.isUppercase }) else { return text }
        return first.lowercased() + text.dropFirst()
    }
}

extension String {
    /// The text after `prefix`, trimmed of spaces; nil when it does not start with it.
    fileprivate func dropping(prefix: String) -> String? {
        hasPrefix(prefix) ? dropFirst(prefix.count).trimmingCharacters(in: .whitespaces) : nil
    }
}
