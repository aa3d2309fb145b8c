import ConnCore
import Foundation

/// Who holds a lease: this host, this process, and when the process started — so a lease whose
/// holder has died (kill -9, a crash, a reboot) is taken over at once instead of after its
/// expiry, and a recycled pid is not mistaken for the holder.
public struct LeaseOwner: Sendable, Equatable, CustomStringConvertible {
    public let host: String
    public let pid: Int32
    public let startTime: String

    public var description: String { "\(host):\(pid):\(startTime)" }

    public static let current = LeaseOwner(host: Self.hostName(), pid: getpid(), startTime: Self.startTime(of: getpid()) ?? "?")

    public init(host: String, pid: Int32, startTime: String) {
        self.host = host
        self.pid = pid
        self.startTime = startTime
    }

    /// Parses the stored form; nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let pid = Int32(parts[1]) else { return nil }
        self.init(host: String(parts[0]), pid: pid, startTime: String(parts[2]))
    }

    /// Whether the holder is certainly gone: same host, and no process with that pid and start
    /// time. A holder on another host is never presumed dead; its lease expires instead.
    public var isCertainlyDead: Bool {
        guard host == Self.current.host else { return false }
        guard let start = Self.startTime(of: pid) else { return true }
        return start != startTime
    }

    private static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "localhost" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // By hand: Foundation's replacingOccurrences costs 0.26 ms on its first use (CFString).
        return String(name.map { $0 == ":" ? "_" : $0 })
    }

    /// Field 22 of /proc/PID/stat: the process's start time in clock ticks since boot, with the
    /// boot id so that a reboot also ends every lease.
    static func startTime(of pid: Int32) -> String? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let closing = stat.lastIndex(of: ")")
        else { return nil }
        // Fields after the command name (which may contain spaces) start at field 3.
        let fields = stat[stat.index(after: closing)...].split(separator: " ")
        guard fields.count > 19 else { return nil }
        return "\(bootID)/\(fields[19])"
    }

    private static let bootID: String = {
        let text = (try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8)) ?? "noboot"
        return String(text.trimmingWhitespace().prefix(8))
    }()
}
