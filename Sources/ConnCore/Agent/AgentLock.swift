import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The lock that makes one agent per database: an flock(2) on a file in the agent's directory,
/// held for the agent's life. The kernel releases it when the process ends, however it ends, so
/// it is never stale; the file holds the holder's pid, for messages.
public final class AgentLock: Sendable {
    private let descriptor: Int32
    /// Whose lock it is: the agent keeps it through a SIGHUP re-read that names the same database.
    public let place: AgentPlace

    private init(descriptor: Int32, place: AgentPlace) {
        self.descriptor = descriptor
        self.place = place
    }

    deinit { close(descriptor) }

    /// Takes the lock, or throws `agentRunning` (75) naming the agent that holds it.
    public static func acquire(_ place: AgentPlace) throws -> AgentLock {
        try place.prepare()
        let descriptor = open(place.lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw ConnError(code: .directoryUnavailable, message: "cannot open \(place.lockPath): \(String(cString: strerror(errno)))", exitStatus: .ioError)
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let pid = readPID(descriptor)
            close(descriptor)
            throw ConnError(code: .agentRunning,
                            message: "an agent already runs for \(place.databaseFile)\(pid.map { " (pid \($0))" } ?? "")",
                            hint: "`conn agent status` shows what it does; stop it first to start another.", exitStatus: .temporaryFailure)
        }
        let text = "\(getpid())\n"
        _ = ftruncate(descriptor, 0)
        _ = pwrite(descriptor, text, text.utf8.count, 0)
        return AgentLock(descriptor: descriptor, place: place)
    }

    /// The pid of the agent that runs for this database, or nil when none does (asked of the
    /// kernel: a lock a dead agent held is free).
    public static func holder(_ place: AgentPlace) -> Int32? {
        let descriptor = open(place.lockPath, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        if flock(descriptor, LOCK_SH | LOCK_NB) == 0 {
            flock(descriptor, LOCK_UN)
            return nil
        }
        return readPID(descriptor) ?? 0
    }

    private static func readPID(_ descriptor: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = pread(descriptor, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        return Int32(String(decoding: buffer[0..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
