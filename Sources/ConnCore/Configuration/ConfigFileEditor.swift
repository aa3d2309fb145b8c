import Foundation
import Yams

/// Changes one value of a config file's text the way a person would: the line that holds the key
/// gets the new value, or a new line goes where the key belongs. Every other byte stays:
/// comments, order, blank lines, quoting. (Regenerating the YAML from a tree would lose them.)
///
/// Each edit is proven afterwards: the new text is parsed again and must hold exactly the old
/// values with this one changed. A layout the line edit cannot handle (flow style, a value over
/// several lines) is refused with an error, never written half right.
public struct ConfigFileEditor {
    public private(set) var text: String
    let path: String

    public init(text: String, path: String) {
        self.text = text
        self.path = path
    }

    /// Sets the value at `keyPath` (such as `["server"]`, `["profiles", "work", "resources", "inbox"]`).
    public mutating func set(_ keyPath: [String], to value: String) throws {
        precondition(!keyPath.isEmpty)
        // Parsed as the loader parses it: its syntax errors, and its limit on alias expansion.
        let document = try ConfigFileDocument(path: path, text: text)
        let before = Self.scalars(of: document)
        let lineEnding = text.contains("\r\n") ? "\r\n" : "\n"
        var lines = text.components(separatedBy: lineEnding)
        try Self.apply(keyPath, value: Self.yamlScalar(value), root: document.root, lines: &lines)
        let candidate = lines.joined(separator: lineEnding)

        var expected = before.filter { key, _ in !keyPath.indices.contains { key == Array(keyPath[...$0]) } }
        expected[keyPath] = value
        guard (try? ConfigFileDocument(path: path, text: candidate)).map(Self.scalars(of:)) == expected else {
            throw ConnError.configuration(
                "cannot change \(keyPath.joined(separator: ".")) in \(path) by editing its lines: the file uses a layout conn does not edit (flow style { … }, or a value over several lines)",
                hint: "Change it by hand: conn config edit")
        }
        text = candidate
    }

    /// The line of the value at `keyPath` in the text as it now is.
    public func line(of keyPath: [String]) -> Int? {
        (try? ConfigFileDocument(path: path, text: text))?.line(of: keyPath)
    }

    // MARK: - Finding the place

    private static func apply(_ keyPath: [String], value: String, root: Node.Mapping, lines: inout [String]) throws {
        var mapping: Node.Mapping? = root
        var parentKey: Node?  // the key whose value `mapping` is (nil at the top level)
        for (depth, component) in keyPath.enumerated() {
            let isLast = depth == keyPath.count - 1
            guard let (keyNode, valueNode) = mapping?.first(where: { $0.key.string == component }) else {
                try insert(Array(keyPath[depth...]), value: value, into: mapping, under: parentKey, isTopLevel: depth == 0, lines: &lines)
                return
            }
            let dotted = keyPath[...depth].joined(separator: ".")
            if isLast {
                guard let scalar = valueNode.scalar, let mark = valueNode.mark else {
                    throw ConnError.configuration("\(dotted) is a section in the config file, not a single value")
                }
                guard scalar.style != .literal, scalar.style != .folded else {
                    throw ConnError.configuration(
                        "\(dotted) in the config file is a value over several lines (| or >), which conn does not edit",
                        hint: "Change it by hand: conn config edit")
                }
                if isNull(scalar), scalar.string.isEmpty {
                    // `key:` with nothing after it: the value goes on the key's line.
                    try replaceEmptyValue(after: keyNode, with: value, lines: &lines)
                } else {
                    try replaceScalar(at: mark, style: scalar.style, with: value, lines: &lines)
                }
                return
            }
            if let nested = valueNode.mapping {
                mapping = nested
            } else if let scalar = valueNode.scalar, isNull(scalar) {
                mapping = Node.Mapping([])  // `profiles:` with nothing under it yet
            } else {
                throw ConnError.configuration("\(dotted) in the config file holds a single value, not a section")
            }
            parentKey = keyNode
        }
    }

    /// Replaces the scalar starting at `mark` on its line, keeping what follows it (a comment).
    private static func replaceScalar(at mark: Mark, style: Node.Scalar.Style, with value: String, lines: inout [String]) throws {
        let index = mark.line - 1
        guard lines.indices.contains(index) else { throw internalLayout() }
        let scalars = Array(lines[index].unicodeScalars)
        let start = mark.column - 1
        guard start <= scalars.count else { throw internalLayout() }
        var end = start
        switch style {
        case .doubleQuoted:
            end += 1
            while end < scalars.count, scalars[end] != "\"" { end += scalars[end] == "\\" ? 2 : 1 }
            end = min(end + 1, scalars.count)
        case .singleQuoted:
            end += 1
            while end < scalars.count {
                if scalars[end] == "'" {
                    if end + 1 < scalars.count, scalars[end + 1] == "'" { end += 2; continue }
                    break
                }
                end += 1
            }
            end = min(end + 1, scalars.count)
        default:
            // A plain scalar ends at a comment (" #") or the line's end; trailing blanks are not in it.
            while end < scalars.count, !(scalars[end] == "#" && end > start && scalars[end - 1] == " ") { end += 1 }
            while end > start, scalars[end - 1] == " " || scalars[end - 1] == "\t" || scalars[end - 1] == "\r" { end -= 1 }
        }
        var line = String.UnicodeScalarView()
        line.append(contentsOf: scalars[..<start])
        line.append(contentsOf: value.unicodeScalars)
        line.append(contentsOf: scalars[end...])
        lines[index] = String(line)
    }

    /// `key:` (perhaps with a comment) gets ` value` after its colon.
    private static func replaceEmptyValue(after keyNode: Node, with value: String, lines: inout [String]) throws {
        guard let mark = keyNode.mark, lines.indices.contains(mark.line - 1) else { throw internalLayout() }
        let line = lines[mark.line - 1]
        guard let colon = line.range(of: ":", range: line.index(line.startIndex, offsetBy: min(mark.column - 1, line.count))..<line.endIndex) else {
            throw internalLayout()
        }
        lines[mark.line - 1] = line[..<colon.upperBound] + " " + value + line[colon.upperBound...]
    }

    /// Adds `components` (the first missing key and those under it) with `value` to `mapping`.
    private static func insert(
        _ components: [String], value: String, into mapping: Node.Mapping?, under parentKey: Node?, isTopLevel: Bool,
        lines: inout [String]
    ) throws {
        let parentIndent = parentKey?.mark.map { $0.column - 1 } ?? -2
        let entries = mapping.map { Array($0) } ?? []
        let indent = entries.first?.key.mark.map { $0.column - 1 } ?? parentIndent + 2
        let step = max(2, indent - max(parentIndent, 0))

        // After the last entry of the mapping; at the top level, settings go before `profiles:`.
        let anchor: Node?
        if isTopLevel, components[0] != "profiles" {
            anchor = entries.last(where: { $0.key.string != "profiles" })?.key
        } else {
            anchor = entries.last?.key
        }
        let insertAt: Int
        if let anchorLine = anchor?.mark?.line {
            insertAt = endOfEntry(startingAt: anchorLine - 1, indent: indent, lines: lines)
        } else if isTopLevel {
            // No setting yet: before `profiles:` and the comment that introduces it, else at the end.
            if let profilesLine = entries.first(where: { $0.key.string == "profiles" })?.key.mark?.line {
                // Above the comments that introduce it, unless they begin the file (a header).
                var line = profilesLine - 1
                while line > 0, isCommentOrBlank(lines[line - 1]), !lines[line - 1].trimmingCharacters(in: .whitespaces).isEmpty { line -= 1 }
                insertAt = line == 0 ? profilesLine - 1 : line
            } else {
                insertAt = endOfContent(lines)
            }
        } else if let parentLine = parentKey?.mark?.line {
            insertAt = parentLine  // right under `key:`
        } else {
            throw internalLayout()
        }

        var newLines: [String] = []
        for (offset, component) in components.enumerated() {
            let padding = String(repeating: " ", count: indent + offset * step)
            let isLast = offset == components.count - 1
            newLines.append(padding + component + ":" + (isLast ? " " + value : ""))
        }
        lines.insert(contentsOf: newLines, at: insertAt)
    }

    /// The index of the line after the entry whose key is on `line`: its value's lines go on while
    /// they are indented deeper; trailing comments and blank lines belong to what follows.
    private static func endOfEntry(startingAt line: Int, indent: Int, lines: [String]) -> Int {
        var end = line + 1
        var index = line + 1
        while index < lines.count {
            let text = lines[index]
            if isCommentOrBlank(text) { index += 1; continue }
            guard indentation(of: text) > indent else { break }
            index += 1
            end = index
        }
        return end
    }

    /// Where new text goes at the end: after the last line that is not blank (comments included).
    private static func endOfContent(_ lines: [String]) -> Int {
        var end = lines.count
        while end > 0, lines[end - 1].trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { end -= 1 }
        return end
    }

    private static func isCommentOrBlank(_ line: String) -> Bool {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty || trimmed.hasPrefix("#") || trimmed == "\r"
    }

    private static func indentation(of line: String) -> Int {
        line.prefix { $0 == " " }.count
    }

    /// `key:` with nothing, `~` or `null`.
    private static func isNull(_ scalar: Node.Scalar) -> Bool {
        ConfigFileDocument.isNull(scalar)
    }

    private static func internalLayout() -> ConnError {
        ConnError.configuration("the config file's layout is not one conn can edit line by line", hint: "Change it by hand: conn config edit")
    }

    // MARK: - Values

    /// `value` as YAML: plain where that reads back as the same text, else double-quoted.
    static func yamlScalar(_ value: String) -> String {
        let plainSafe = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "._/:@+%=,-"))
        let readsAsText = !["null", "~", ""].contains(value.lowercased())
        if readsAsText, value.unicodeScalars.allSatisfy({ $0.isASCII && plainSafe.contains($0) }),
            let first = value.unicodeScalars.first, CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "./")).contains(first),
            !value.contains(": "), !value.hasSuffix(":")
        {
            return value
        }
        var quoted = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\t": quoted += "\\t"
            case "\r": quoted += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7f {
                    quoted += String(format: "\\x%02X", scalar.value)
                } else {
                    quoted.unicodeScalars.append(scalar)
                }
            }
        }
        return quoted + "\""
    }

    // MARK: - Reading

    /// Every scalar of the file by key path (a `key:` with nothing is an empty string), for the
    /// proof that an edit changed one value and nothing else.
    private static func scalars(of document: ConfigFileDocument) -> [[String]: String] {
        var result: [[String]: String] = [:]
        func walk(_ node: Node, _ prefix: [String]) {
            switch node {
            case .mapping(let mapping):
                for (key, value) in mapping { walk(value, prefix + [key.string ?? "?"]) }
            case .scalar(let scalar):
                result[prefix] = isNull(scalar) ? "" : scalar.string
            case .sequence(let sequence):
                for (index, element) in sequence.enumerated() { walk(element, prefix + ["[\(index)]"]) }
            default:
                result[prefix] = "alias"
            }
        }
        walk(.mapping(document.root), [])
        return result
    }
}
