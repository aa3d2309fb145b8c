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
}
