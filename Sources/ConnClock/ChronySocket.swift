import ConnCore
import Foundation

/// chronyd's SOCK reference clock (`refclock SOCK PATH` in chrony.conf; chrony's refclock_sock.c):
/// a datagram socket chronyd listens on, one `struct sock_sample` per sample — the time of the
/// sample (a `struct timeval`), the offset in seconds (true time − system time: the back end's
/// clock minus this machine's), pulse, leap, padding and the magic 0x534f434b.
struct ChronySocket: Sendable {
    let path: String

    static let magic: Int32 = 0x534f_434b

    /// Whether `path` exists and is something other than a socket (refused by both the option
    /// and the setting); an absent path is fine: chronyd may not be running yet.
    static func isOtherThanSocket(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) != S_IFSOCK
    }

    static let pathHint = "Give the path of chrony.conf's `refclock SOCK PATH`; chronyd creates it."

    /// The sample as chronyd reads it (x86-64 and arm64 layout: 40 bytes).
    static func datagram(offsetSeconds: Double, at time: Date) -> [UInt8] {
        let seconds = time.timeIntervalSince1970.rounded(.down)
        var sample = [UInt8]()
        func append<Value>(_ value: Value) { withUnsafeBytes(of: value) { sample += $0 } }
        append(Int64(seconds))                                                      // tv_sec
        append(Int64(((time.timeIntervalSince1970 - seconds) * 1_000_000).rounded(.down)))  // tv_usec
        append(offsetSeconds)                                                       // offset
        append(Int32(0))                                                            // pulse
        append(Int32(0))                                                            // leap
        append(Int32(0))                                                            // _pad
        append(magic)                                                               // magic
        return sample
    }

    /// Sends one sample; nil when chronyd took it, else why not (not running, restarted).
    func send(offsetSeconds: Double, at time: Date) -> String? {
        // A file name, never an abstract one: "@x" here is a file of that name.
        guard let address = UnixSocketAddress(path.hasPrefix("@") ? "./" + path : path) else { return "the path is too long for a socket" }
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return String(cString: strerror(errno)) }
        defer { close(descriptor) }
        let sample = Self.datagram(offsetSeconds: offsetSeconds, at: time)
        let sent = address.withSockaddr { sendto(descriptor, sample, sample.count, Int32(MSG_NOSIGNAL), $0, $1) }
        guard sent == sample.count else {
            return errno == ENOENT || errno == ECONNREFUSED ? "chronyd is not listening at \(path)" : String(cString: strerror(errno))
        }
        return nil
    }
}
