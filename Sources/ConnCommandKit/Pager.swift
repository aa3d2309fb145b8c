import ConnCore
import Foundation

/// Long text output on a terminal goes through a pager, as git and gh do: $CONN_PAGER, else
/// $PAGER, else `less -FRX` (which leaves output shorter than the screen on it and keeps
/// colour). `--no-pager`, `CONN_PAGER=cat` (or empty), a pipe, JSON and output that fits the
/// screen never page.
public struct Pager: Sendable {
    public let command: String
    /// The terminal's height: output with more lines than this pages.
    public let rows: Int

    /// The pager for text on stdout, or nil when there should be none.
    public static func choose(environment: [String: String], terminal: TerminalFacts, format: OutputFormat) -> Pager? {
        guard terminal.standardOutputIsTerminal, format == .text else { return nil }
        let chosen = environment["CONN_PAGER"] ?? environment["PAGER"]
        // The default only where less is installed (a minimal system has none).
        if chosen == nil, !isInstalled("less", environment: environment) { return nil }
        let command = (chosen ?? "less -FRX").trimmingBlanks()
        guard !command.isEmpty, command != "cat" else { return nil }
        return Pager(command: command, rows: TerminalSize.rows(environment: environment))
    }

    static func isInstalled(_ program: String, environment: [String: String]) -> Bool {
        (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains { directory in
            directory.hasPrefix("/") && FileManager.default.isExecutableFile(atPath: "\(directory)/\(program)")
        }
    }

    /// Whether `text` needs it: more lines than the screen holds (one is the prompt's).
    public func isNeeded(for text: String) -> Bool {
        var lines = 0
        for byte in text.utf8 where byte == 0x0A {
            lines += 1
            if lines >= rows { return true }
        }
        return false
    }

    /// Runs the pager on the terminal with `text` on its standard input and waits for it.
    /// Returns false when it could not be started or run (the caller prints the text itself).
    public func show(_ text: String, environment: [String: String]) -> Bool {
        var variables = environment
        if variables["LESS"] == nil { variables["LESS"] = "FRX" }
        guard let status = try? ForegroundChild.run("/bin/sh", arguments: ["sh", "-c", command], environment: variables,
                                                    input: Array(text.utf8))
        else { return false }
        // 126/127: the shell could not run it (not found, not executable); the text is not shown.
        return status != 126 && status != 127
    }
}
