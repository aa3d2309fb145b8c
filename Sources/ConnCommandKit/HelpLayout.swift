/// Where the sections of a command's help go. ArgumentParser prints titled option groups before
/// the untitled OPTIONS; conn's global options are such a group, and would bury the command's
/// own options under a dozen that every command shares. They are moved after OPTIONS here.
public enum HelpLayout {
    static let globalHeader = "GLOBAL OPTIONS:"

    /// `help` with its GLOBAL OPTIONS section after the OPTIONS section (unchanged when it lacks
    /// either).
    public static func globalOptionsLast(_ help: String) -> String {
        var lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let globalStart = lines.firstIndex(of: globalHeader) else { return help }
        let globalEnd = sectionEnd(lines, from: globalStart)
        let global = Array(lines[globalStart..<globalEnd])
        lines.removeSubrange(globalStart..<globalEnd)
        guard let optionsStart = lines.firstIndex(of: "OPTIONS:") else { return help }
        let optionsEnd = sectionEnd(lines, from: optionsStart)
        // A section ends with its blank line: keep one between OPTIONS and the global ones.
        var moved = global
        if moved.last?.isEmpty == false { moved.append("") }
        var insertAt = optionsEnd
        if insertAt == lines.count, lines.last?.isEmpty == false {
            lines.append("")
            insertAt = lines.count
        }
        lines.insert(contentsOf: moved, at: insertAt)
        while lines.count > 1, lines[lines.count - 1].isEmpty, lines[lines.count - 2].isEmpty { lines.removeLast() }
        return lines.joined(separator: "\n")
    }

    /// The index of the next section's header after `start` ("SUBCOMMANDS:", "ARGUMENTS:"), or
    /// the end: a section's lines, blank ones within and after it included, come before it.
    private static func sectionEnd(_ lines: [String], from start: Int) -> Int {
        lines[(start + 1)...].firstIndex(where: isHeader) ?? lines.count
    }

    private static func isHeader(_ line: String) -> Bool {
        line.hasSuffix(":") && line.first?.isUppercase == true && line.dropLast().allSatisfy { $0.isUppercase || $0 == " " }
    }

    /// The root's help (ArgumentParser's, with conn's discussion) laid out for a first reader:
    /// the overview, the usage and the commands first, then the discussion without its
    /// Environment and Files blocks (pointed to instead), then conn's own two options. The
    /// global options' section is left out: the discussion names them, and every command's help
    /// lists them in full.
    public static func root(_ help: String) -> String {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        func section(_ header: String) -> [String] {
            guard let start = lines.firstIndex(where: { $0.hasPrefix(header) }) else { return [] }
            var end = sectionEnd(lines, from: start)
            while end > start + 1, lines[end - 1].isEmpty { end -= 1 }
            return Array(lines[start..<end])
        }
        let usageIndex = lines.firstIndex { $0.hasPrefix("USAGE:") } ?? lines.count
        let overviewStart = lines.firstIndex { $0.hasPrefix("OVERVIEW:") } ?? usageIndex
        let overview = Array(lines[overviewStart..<usageIndex])
        let usage = usageIndex < lines.count ? [lines[usageIndex]] : []
        // The discussion: the overview section's lines after its first, in paragraphs.
        let paragraphs = overview.dropFirst().split(separator: "", omittingEmptySubsequences: true).map { $0.joined(separator: "\n") }
            .filter { !$0.hasPrefix("Environment:") && !$0.hasPrefix("Files:") }
        let pointer = "Environment and files: `conn help environment`, or `man conn`."
        var parts: [[String]] = [Array(overview.prefix(1)), usage, section("SUBCOMMANDS:")]
        parts += paragraphs.map { [$0] }
        parts += [[pointer], section("OPTIONS:")]
        return parts.filter { !$0.isEmpty }.map { $0.joined(separator: "\n") }.joined(separator: "\n\n") + "\n"
    }

    /// `text` wrapped at `width` columns, every line indented by `indent` spaces.
    public static func wrap(_ text: String, width: Int, indent: Int) -> String {
        let room = max(20, width - indent)
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > room {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        let pad = String(repeating: " ", count: indent)
        return lines.map { pad + $0 }.joined(separator: "\n")
    }
}
