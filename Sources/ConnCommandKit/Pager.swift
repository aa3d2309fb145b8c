import ConnCore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

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
        let command = (chosen ?? "less -FRX").trimmingCharacters(in: .whitespaces)
        guard !command.isEmpty, command != "cat" else { return nil }
        return Pager(command: command, rows: terminalRows(environment: environment))
    }

    static func isInstalled(_ program: String, environment: [String: String]) -> Bool {
        (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains { directory in
            directory.hasPrefix("/") && FileManager.default.isExecutableFile(atPath: "\(directory)/\(program)")
        }
    }

    /// LINES, else the terminal's own height (TIOCGWINSZ on stdout), else 24.
    static func terminalRows(environment: [String: String]) -> Int {
        if let lines = environment["LINES"].flatMap(Int.init), (2...10_000).contains(lines) { return lines }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row >= 2 { return Int(size.ws_row) }
        return 24
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
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return false }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[0], STDIN_FILENO)
        posix_spawn_file_actions_addclose(&actions, fds[1])
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGWINCH, SIGTSTP, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))

        var variables = environment
        if variables["LESS"] == nil { variables["LESS"] = "FRX" }
        let words: [String] = ["sh", "-c", command]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid = pid_t()
        let started = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, envp)
        close(fds[0])
        guard started == 0 else {
            close(fds[1])
            return false
        }
        // A pager quit early (q) closes the pipe: the rest is not wanted (EPIPE; SIGPIPE is ignored).
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                break
            }
            offset += written
        }
        close(fds[1])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        // 126/127: the shell could not run it (not found, not executable); the text is not shown.
        let exited = status & 0x7f == 0, code = (status >> 8) & 0xff
        return !(exited && (code == 126 || code == 127))
    }
}
