import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs a program as a child that owns the terminal as a shell's foreground job does: in conn's
/// own process group (Foundation's Process puts a child in a group of its own, where reading the
/// terminal fails with EIO), with standard input, output and error inherited, and with the
/// signals conn ignores (the REPL ignores SIGINT) back at their defaults, so Ctrl-C reaches it.
public enum ForegroundChild {
    public struct SpawnFailure: Error {
        public let errno: Int32
    }

    /// Starts `path` with `arguments` (argv[0] included) and `environment`, waits for it, and
    /// returns its exit status, 128 + the signal if a signal ended it. With `input`, its standard
    /// input is a pipe fed those bytes (a pager); a child that stops reading early (EPIPE) ends
    /// the feeding, not conn.
    public static func run(_ path: String, arguments: [String], environment: [String: String],
                           input: [UInt8]? = nil) throws(SpawnFailure) -> Int32 {
        var pipeEnds: [Int32] = [-1, -1]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if input != nil {
            // Close-on-exec: another thread's child must not hold the write end, or the pager
            // never sees the end of its input.
            guard let ends = CloseOnExecPipe.make() else { throw SpawnFailure(errno: errno) }
            pipeEnds = [ends.read, ends.write]
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[0], STDIN_FILENO)
            posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGPIPE, SIGWINCH, SIGTSTP, SIGTTIN, SIGTTOU, SIGCHLD] {
            sigaddset(&defaults, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var noneBlocked = sigset_t()
        sigemptyset(&noneBlocked)
        posix_spawnattr_setsigmask(&attributes, &noneBlocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let (pid, started) = PosixSpawn.spawn(path, argv: arguments, environment: environment, actions: &actions, attributes: &attributes)
        if input != nil { close(pipeEnds[0]) }
        guard started == 0 else {
            if input != nil { close(pipeEnds[1]) }
            throw SpawnFailure(errno: started)
        }
        if let input {
            var offset = 0
            while offset < input.count {
                let written = input[offset...].withUnsafeBytes { write(pipeEnds[1], $0.baseAddress, $0.count) }
                if written < 0 {
                    if errno == EINTR { continue }
                    break  // EPIPE: the child stopped reading (SIGPIPE is ignored in conn)
                }
                offset += written
            }
            close(pipeEnds[1])
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return 128 + SIGKILL }
        }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}
