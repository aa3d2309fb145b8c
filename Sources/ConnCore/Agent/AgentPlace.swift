import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where the agent of one database can be found: its control socket and its lock, in
/// `$XDG_RUNTIME_DIR/conn/`, or a private directory `/tmp/conn-UID/` (0700, checked to be this
/// user's) when that variable is unset. One agent per database: the names carry a hash of the
/// database's path.
public struct AgentPlace: Sendable, Equatable {
    public let directory: String
    public let databaseFile: String

    public init(databaseFile: String, environment: [String: String]) {
        self.databaseFile = databaseFile
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            directory = runtime + "/conn"
        } else {
            directory = "/tmp/conn-\(getuid())"
        }
    }

    /// A stable, short name for the database (FNV-1a over its path): not a secret, only a name.
    var key: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in databaseFile.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }

    public var socketPath: String { directory + "/agent-\(key).sock" }
    public var lockPath: String { directory + "/agent-\(key).lock" }

    /// Creates the directory (0700) if needed and checks that it is this user's and private: a
    /// directory in /tmp that someone else made could hold a socket that impersonates the agent.
    public func prepare() throws {
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            throw ConnError(code: .directoryUnavailable, message: "cannot create directory \(directory): \(String(cString: strerror(errno)))", exitStatus: .ioError)
        }
        var info = stat()
        guard lstat(directory, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw ConnError(code: .directoryUnavailable, message: "\(directory) is not a directory", exitStatus: .ioError)
        }
        guard info.st_uid == getuid(), info.st_mode & 0o077 == 0 else {
            throw ConnError(code: .agentDirectoryUnsafe,
                            message: "\(directory) belongs to another user or is open to others (mode \(String(info.st_mode & 0o777, radix: 8)))",
                            hint: "Remove it, or set XDG_RUNTIME_DIR to a private directory.", exitStatus: .permission)
        }
    }
}
