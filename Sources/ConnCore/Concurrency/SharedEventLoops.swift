import Glibc
import NIOCore

/// The size of SwiftNIO's shared event-loop group, which every connection of conn uses. NIO makes
/// one thread per core, all at the first connection: on a 64-core server that is 64 threads for
/// one `conn probe` (3–4 ms more per run, measured with NIO_SINGLETON_GROUP_LOOP_COUNT=64). A conn
/// process holds a few connections at a time, or a probe's many that mostly wait, so a few loops
/// serve it as well; the TLS handshakes of a large `probe --file` still get four cores.
public enum SharedEventLoops {
    /// The most loops conn asks for.
    public static let maximumLoops = 4

    /// Caps the shared group at `maximumLoops` (fewer on a smaller machine), unless the user set
    /// NIO_SINGLETON_GROUP_LOOP_COUNT, which NIO reads itself. Call it once, before any connection.
    public static func configure(environment: [String: String]) {
        guard environment["NIO_SINGLETON_GROUP_LOOP_COUNT"] == nil else { return }
        NIOSingletons.groupLoopCountSuggestion = loops(usableCores: usableCores())
    }

    /// `usableCores` (0 when it could not be told) capped to 1...maximumLoops.
    public static func loops(usableCores: Int) -> Int {
        min(max(usableCores, 1), maximumLoops)
    }

    /// The cores online, or 0 if that cannot be told. glibc reads one small sysfs file, where
    /// NIO's own count (which also honours cgroup quotas) reads several: more loops than a
    /// quota allows only leave threads idle.
    static func usableCores() -> Int {
        max(sysconf(Int32(_SC_NPROCESSORS_ONLN)), 0)
    }
}
