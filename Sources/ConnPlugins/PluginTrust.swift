import Foundation

/// Whether a plugin file is safe to hand the token to: nobody but its owner (the user or root)
/// can replace it. As OpenSSH and sudo judge a path: the file, and every directory from it up to
/// `/`, along the path as found and along the path its symlinks lead to, must be owned by root
/// or the user and not writable by group or others; a directory writable by others is let pass
/// only when it is sticky and owned by root or the user (`/tmp`), where nobody else may rename
/// or remove what is in it.
public enum PluginTrust {
    /// Why `path` is not safe, naming the file or directory at fault; nil when it is safe.
    public static func reasonNotToTrust(_ path: String, userID: uid_t = geteuid()) -> String? {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        for chain in Set([path, resolved]) {
            if let reason = reason(forFile: chain, userID: userID) { return reason }
        }
        return nil
    }

    private static func reason(forFile path: String, userID: uid_t) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return "\(path) cannot be read (\(String(cString: strerror(errno))))" }
        if let why = problem(info, userID: userID, isDirectory: false) { return "\(path) \(why)" }
        var directory = (path as NSString).deletingLastPathComponent
        while true {
            var directoryInfo = stat()
            guard lstat(directory, &directoryInfo) == 0 else { return "\(directory) cannot be read (\(String(cString: strerror(errno))))" }
            if let why = problem(directoryInfo, userID: userID, isDirectory: true) { return "\(directory) \(why)" }
            if directory == "/" || directory.isEmpty { return nil }
            directory = (directory as NSString).deletingLastPathComponent
        }
    }

    private static func problem(_ info: stat, userID: uid_t, isDirectory: Bool) -> String? {
        let mode = info.st_mode
        let ownedWell = info.st_uid == 0 || info.st_uid == userID
        // A symlink among the directories: its own mode means nothing; the resolved chain is
        // checked as well.
        if (mode & S_IFMT) == S_IFLNK { return ownedWell ? nil : "is a symlink owned by user \(info.st_uid)" }
        if !ownedWell { return "is owned by user \(info.st_uid), who could replace it" }
        let writableByOthers = mode & (S_IWGRP | S_IWOTH) != 0
        guard writableByOthers else { return nil }
        if isDirectory, mode & S_ISVTX != 0 { return nil }
        let who = mode & S_IWOTH != 0 ? "everyone" : "its group"
        return "is writable by \(who) (mode \(String(mode & 0o7777, radix: 8)))"
    }
}
