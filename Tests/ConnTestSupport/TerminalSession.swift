import Foundation

/// A program running in a real terminal: a detached tmux session on its own tmux server (so
/// tests never touch a person's tmux), typed into with `send-keys`, read with `capture-pane`.
public final class TerminalSession: @unchecked Sendable {
    public static let tmuxPath = ["/usr/bin/tmux", "/bin/tmux"].first { FileManager.default.isExecutableFile(atPath: $0) }
    public static var available: Bool { tmuxPath != nil }

    private let socket: String
    public let name = "conn"

    /// Starts `command` (argv) with exactly `environment`, in a terminal of `columns` × `rows`.
    public init(_ command: [String], environment: [String: String], columns: Int = 120, rows: Int = 40) throws {
        socket = "conn-test-\(UUID().uuidString.prefix(8))"
        let assignments = environment.map { "\($0.key)=\($0.value)" }
        // `env -i`: the program gets this environment only. After it exits, the shell prints
        // its status on the screen and keeps the pane open, so the last screen can be read.
        // `trap : INT`: Ctrl-C reaches the whole foreground group; the wrapper must survive it
        // (a handler, unlike an ignore, is reset for the program by exec).
        let script = #"trap : INT; env -i "$@"; echo "[exited $?]"; exec sleep 600"#
        try tmux(capturing: false, ["new-session", "-d", "-s", name, "-x", String(columns), "-y", String(rows),
                                    "/bin/sh", "-c", script, "sh"] + assignments + command)
        // Everything the program writes from here on, kept in a file: what was on the screen
        // between two looks (a spinner's frames) can be read after the fact, however late the
        // test gets to look.
        try tmux(capturing: false, ["pipe-pane", "-t", name, "-o", "cat >> '\(transcriptPath)'"])
    }

    /// Where the transcript of the pane's output is kept.
    private var transcriptPath: String { NSTemporaryDirectory() + socket + ".transcript" }

    /// Every byte the program wrote to the terminal since it started (escape sequences and
    /// carriage returns included), as text.
    public func transcript() -> String {
        (try? String(contentsOfFile: transcriptPath, encoding: .utf8)) ?? ""
    }

    /// Types text literally (no key names).
    public func type(_ text: String) throws {
        try tmux(["send-keys", "-t", name, "-l", text])
    }

    /// Presses keys by tmux name: "Enter", "Tab", "C-c", "C-d", "Up".
    public func press(_ keys: String...) throws {
        try tmux(["send-keys", "-t", name] + keys)
    }

    /// Resizes the terminal (the program gets SIGWINCH, as from a window resized by hand).
    public func resize(columns: Int, rows: Int) throws {
        try tmux(["resize-window", "-t", name, "-x", String(columns), "-y", String(rows)])
    }

    /// The visible screen, lines joined with newlines (trailing blank lines dropped).
    public func screen() throws -> String {
        let text = try tmux(["capture-pane", "-p", "-t", name])
        return text.replacingOccurrences(of: "\\n+$", with: "", options: .regularExpression)
    }

    /// The last non-empty line of the screen: usually the prompt and what is typed after it.
    public func lastLine() throws -> String {
        try screen().split(separator: "\n").last.map(String.init) ?? ""
    }

    /// Waits until `predicate` holds for the screen, up to `seconds`; returns the screen. Each
    /// look (a tmux run, spawned and waited for) is made on a thread of its own: a poll on an
    /// executor thread held one of the test run's few for every look, and starved the others.
    @discardableResult
    public func waitFor(_ seconds: Double = 10, _ what: String = "", _ predicate: (String) -> Bool) async throws -> String {
        var last = ""
        let matched = try await poll(for: seconds, every: .milliseconds(50)) {
            last = try await screenOffTheExecutor()
            return predicate(last) ? last : nil
        }
        guard let matched else { throw TerminalTimeout(what: what, screen: last) }
        return matched
    }

    /// `screen()`, run on a thread of its own.
    public func screenOffTheExecutor() async throws -> String {
        try await onOwnThread { [self] in Result { try screen() } }.get()
    }

    /// The program's exit status once it has exited (read from the line the wrapper prints).
    public func exitStatus() throws -> Int32? {
        Self.exitStatus(on: try screen())
    }

    /// The status the wrapper printed on `screen`, if it has.
    static func exitStatus(on screen: String) -> Int32? {
        guard let range = screen.range(of: #"\[exited (\d+)\]"#, options: .regularExpression) else { return nil }
        return Int32(screen[range].dropFirst("[exited ".count).dropLast())
    }

    /// Waits for the program to exit, up to `seconds`; its status and last screen.
    public func finished(within seconds: Double = 20) async throws -> (status: Int32, screen: String) {
        let screen = try await waitFor(seconds, "the command to finish") { Self.exitStatus(on: $0) != nil }
        return (Self.exitStatus(on: screen) ?? -1, screen)
    }

    /// Runs tmux and waits for it (posix_spawn and waitpid: Foundation's Process was seen never
    /// reaping the tmux client that daemonizes the server). `new-session` starts the tmux
    /// server, which would inherit an output pipe and keep it open for its lifetime: it gets
    /// /dev/null (`capturing: false`), and it starts through a python3 exec wrapper that closes
    /// every descriptor from 3 up (posix_spawn's closefrom is not visible from Swift here).
    /// Without that, the server (alive for the whole test) kept whatever other tests had open at
    /// that moment without close-on-exec — Foundation's pipes and the socket it watches a child's
    /// exit by — so those tests waited for an end of file that never came (a CI run hung in
    /// BackgroundServer.stop() on a conn-server that had exited).
    @discardableResult
    private func tmux(capturing: Bool = true, _ arguments: [String]) throws -> String {
        let tmuxArgv = [Self.tmuxPath ?? "/usr/bin/tmux", "-L", socket, "-f", "/dev/null"] + arguments
        let argv = arguments.first == "new-session"
            ? ["/usr/bin/python3", "-c", "import os, sys; os.closerange(3, 1 << 20); os.execv(sys.argv[1], sys.argv[1:])"] + tmuxArgv
            : tmuxArgv
        var fds: [Int32] = [-1, -1]
        // Close-on-exec (posix_spawn's dup2 gives the child its own fd 1): another test's tmux
        // client spawned later must not inherit the write end, or this read waits for it to exit.
        if capturing {
            guard pipe(&fds) == 0 else { throw POSIXError(.EMFILE) }
            fds.forEach { _ = fcntl($0, F_SETFD, FD_CLOEXEC) }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        if capturing {
            posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
            posix_spawn_file_actions_addclose(&actions, fds[0])
            posix_spawn_file_actions_addclose(&actions, fds[1])
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArguments, environ)
        if capturing { close(fds[1]) }
        guard spawned == 0 else {
            if capturing { close(fds[0]) }
            throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO)
        }
        var output = Data()
        if capturing {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(fds[0], &buffer, buffer.count)
                if count > 0 { output.append(contentsOf: buffer[0..<count]) } else if count == 0 || errno != EINTR { break }
            }
            close(fds[0])
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return String(decoding: output, as: UTF8.self)
    }

    deinit {
        // kill-server alone returns 0 and leaves the server running here (tmux 3.3a), with its
        // pane sleeping for 10 minutes: dozens piled up over a test run. Ending the session ends
        // the server (it was its only one).
        _ = try? tmux(capturing: false, ["kill-session", "-t", name])
        _ = try? tmux(capturing: false, ["kill-server"])
        unlink(transcriptPath)
    }
}

public struct TerminalTimeout: Error, CustomStringConvertible {
    public let what: String
    public let screen: String
    public var description: String { "timed out waiting for \(what); the screen was:\n\(screen)" }
}
