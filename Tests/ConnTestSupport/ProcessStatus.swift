import Foundation

/// A process's figures from /proc/PID/status.
public enum ProcessStatus {
    /// A field given in kB (`RssAnon`: its private memory, the binary's pages left out), or nil
    /// when the process is gone or has no such field.
    public static func kilobytes(_ field: String, of pid: Int32) -> Int? {
        (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix(field + ":") }
            .flatMap { Int($0.split(whereSeparator: \.isWhitespace).dropFirst().first ?? "") }
    }
}
