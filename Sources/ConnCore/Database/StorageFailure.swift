import Foundation
import GRDB

/// What went wrong with the local database, said for a person, with the exit code that fits:
/// a full disk is not a bug in conn (74), a lock held too long is worth retrying (75), a corrupt
/// file is bad data with a way out (65), a read-only one is a permission problem (77).
public enum StorageFailure {
    /// The `ConnError` for an SQLite failure on the database at `path`; nil for other errors.
    public static func describe(_ error: any Error, path: String) -> ConnError? {
        guard let error = error as? DatabaseError else { return nil }
        let free = freeBytes(besides: path)
        switch error.resultCode {
        case .SQLITE_FULL:
            return diskFull(path, free: free)
        case .SQLITE_IOERR:
            // A write that found no room comes back from SQLite as an I/O error too (a WAL or
            // journal write): a disk with (next to) nothing free is full, said so.
            if let free, free < 1 << 20 { return diskFull(path, free: free) }
            return ConnError(code: .ioError, message: "reading or writing \(path) failed (\(error.message ?? "I/O error"))",
                             hint: "Check the disk; then run the command again.", exitStatus: .ioError)
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return ConnError(code: .databaseLocked, message: "the local database \(path) stayed locked by another process for \(LocalDatabase.busyTimeoutSeconds) s",
                             hint: "Another conn (a long flush, watch or repl) is writing to it; try again.", exitStatus: .temporaryFailure)
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            return ConnError(code: .databaseCorrupt, message: "\(path) is not a usable SQLite database (corrupt or not a database)",
                             hint: "Move it aside and conn starts a new, empty one: mv '\(path)' '\(path).corrupt' (its outbox and inbox cache stay in the moved file).",
                             exitStatus: .dataError)
        case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_AUTH:
            return ConnError(code: .databaseReadOnly, message: "the local database \(path) cannot be written (read-only)",
                             hint: "Check the permissions of the file and of its directory.", exitStatus: .permission)
        case .SQLITE_CANTOPEN:
            return ConnError(code: .databaseUnavailable, message: "cannot open the local database \(path)",
                             hint: "Check that its directory exists and that you may write to it.", exitStatus: .unavailable)
        default:
            return nil
        }
    }

    static func diskFull(_ path: String, free: UInt64?) -> ConnError {
        let directory = (path as NSString).deletingLastPathComponent
        let room = free.map { "\($0) bytes free on \(directory)" } ?? "on \(directory)"
        return ConnError(code: .diskFull, message: "the disk is full (\(room)); nothing was written to \(path)",
                         hint: "Free some space, then run the command again.", exitStatus: .ioError)
    }

    /// The bytes an unprivileged writer may still use on the file system that holds `path`.
    static func freeBytes(besides path: String) -> UInt64? {
        var stats = statvfs()
        guard statvfs((path as NSString).deletingLastPathComponent, &stats) == 0 else { return nil }
        return UInt64(stats.f_bavail) * UInt64(stats.f_frsize)
    }
}
