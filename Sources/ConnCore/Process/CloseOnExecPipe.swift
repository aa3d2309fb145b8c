#if canImport(Glibc)
import Glibc
#endif

/// A pipe whose ends are close-on-exec: a child that another thread spawns meanwhile (a hook,
/// a plugin, the REPL's delivery) does not inherit them, so the reader sees the end of input
/// when its own writer closes. A child meant to have an end gets it by dup2, which clears the
/// flag on the copy. (`pipe2` is not visible from Swift here; the flag is set at once.)
public enum CloseOnExecPipe {
    /// The read and write ends, or nil with errno set.
    public static func make() -> (read: Int32, write: Int32)? {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        ends.forEach { _ = fcntl($0, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }
}
