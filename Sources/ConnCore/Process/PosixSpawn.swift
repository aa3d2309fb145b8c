import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The posix_spawn call ForegroundChild and SpawnedProcess share, once their file actions and
/// attributes are made.
enum PosixSpawn {
    /// Starts `path` with `argv` (argv[0] included) and `environment`; a file still open for
    /// writing somewhere (ETXTBSY: just built) is tried again for up to half a second. The
    /// child's pid, or 0 and posix_spawn's error number.
    static func spawn(_ path: String, argv arguments: [String], environment: [String: String],
                      actions: inout posix_spawn_file_actions_t, attributes: inout posix_spawnattr_t) -> (pid: pid_t, error: Int32) {
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid = pid_t()
        var started = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        for _ in 0..<50 where started == ETXTBSY {
            usleep(10_000)
            started = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        }
        return (started == 0 ? pid : 0, started)
    }
}
