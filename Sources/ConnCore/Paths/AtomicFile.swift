import Foundation

/// Writes a whole file so that a reader (or a crash) sees the old contents or the new, never
/// part of either: a synced temporary file beside it, renamed over it.
public enum AtomicFile {
    /// Writes `data` as the whole of `path` with `mode`, creating its directory (0700) when missing. A symbolic
    /// link at `path` is followed: its target is replaced, the link stays (dotfile managers link
    /// config files).
    public static func replace(_ path: String, with data: Data, mode: mode_t) throws {
        let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)).map { destination in
            destination.hasPrefix("/") ? destination : ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(destination)
        } ?? path
        try ensureDirectory(containing: target)
        let temporary = target + ".\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            throw ConnError(code: .ioError, message: "cannot write \(temporary): \(String(cString: strerror(errno)))", exitStatus: .ioError)
        }
        fchmod(descriptor, mode)  // the umask may have taken bits the file had
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == data.count, synced, rename(temporary, target) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw ConnError(code: .ioError, message: "cannot write \(target): \(reason)", exitStatus: .ioError)
        }
    }

    /// Creates the directory `path` goes in (0700, parents too) when it is missing.
    public static func ensureDirectory(containing path: String) throws {
        try ConnPaths.ensureDirectory((path as NSString).deletingLastPathComponent)
    }

    /// The permission bits of the file at `path` (following links), if it exists.
    public static func mode(of path: String) -> mode_t? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return status.st_mode & 0o7777
    }
}
