/// Text made to fit a terminal's width, for `inbox list` and `inbox thread`. Widths count
/// characters (one column each), as the rest of the layout does.
enum FittedText {
    /// `text` within `columns` characters, cut with an ellipsis when longer.
    static func cut(_ text: String, to columns: Int, ellipsis: String) -> String {
        let room = max(columns, ellipsis.count + 1)
        return text.count <= room ? text : String(text.prefix(room - ellipsis.count)) + ellipsis
    }

    /// As many participants as fit in `columns`, the rest counted: "ann@x, bob@y +3".
    static func participants(_ names: [String], fitting columns: Int) -> String {
        var shown: [String] = []
        for (index, name) in names.enumerated() {
            let rest = names.count - index - 1
            let candidate = (shown + [name]).joined(separator: ", ") + (rest > 0 ? " +\(rest)" : "")
            if candidate.count > columns, !shown.isEmpty { break }
            shown.append(name)
        }
        let hidden = names.count - shown.count
        return shown.joined(separator: ", ") + (hidden > 0 ? " +\(hidden)" : "")
    }

    /// `line` broken into lines of at most `columns` characters: at the last blank that fits,
    /// else (a word longer than the line, a URL) within the word. Nothing is dropped but the
    /// blanks a break replaces; an empty line stays one empty line.
    static func wrap(_ line: Substring, to columns: Int) -> [Substring] {
        let width = max(columns, 1)
        var lines: [Substring] = []
        var rest = line
        while rest.count > width {
            let limit = rest.index(rest.startIndex, offsetBy: width)
            if let blank = rest[..<limit].lastIndex(of: " "), blank > rest.startIndex {
                lines.append(rest[..<blank])
                rest = rest[rest.index(after: blank)...].drop { $0 == " " }
            } else if rest[limit] == " " {
                lines.append(rest[..<limit])
                rest = rest[limit...].drop { $0 == " " }
            } else {
                lines.append(rest[..<limit])
                rest = rest[limit...]
            }
        }
        lines.append(rest)
        return lines
    }

    /// A `to` field's addresses as the thread shows them: split at ", " (by bytes: the
    /// separator is ASCII, so its bytes are Character boundaries).
    static func addresses(_ text: String) -> [String] {
        var parts: [String] = []
        let bytes = text.utf8
        var start = bytes.startIndex
        var index = start
        while index < bytes.endIndex {
            let next = bytes.index(after: index)
            if bytes[index] == UInt8(ascii: ","), next < bytes.endIndex, bytes[next] == UInt8(ascii: " ") {
                parts.append(String(text[start..<index]))
                start = bytes.index(after: next)
                index = start
            } else {
                index = next
            }
        }
        parts.append(String(text[start...]))
        return parts
    }
}
