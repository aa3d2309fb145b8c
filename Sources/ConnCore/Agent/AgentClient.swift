import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Talks to the running agent over its control socket: one JSON line asked, one answered. Quick
/// by design (a second at most): `conn send` asks after its own attempt, and must not hang on an
/// agent that does not answer.
public enum AgentClient {
    /// What can be asked.
    public enum Request: String, Sendable {
        /// The agent's status (`AgentStatus`, as JSON).
        case status
        /// Deliver the outbox now (a message was queued): `{"ok":true}`.
        case wake
    }

    /// The agent's answer, or nil when no agent listens (or it did not answer in time).
    public static func ask(_ request: Request, at place: AgentPlace, timeout: Duration = .seconds(1)) -> String? {
        guard let address = UnixSocketAddress(place.socketPath) else { return nil }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var limit = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: Int(timeout.components.attoseconds / 1_000_000_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        guard address.withSockaddr({ connect(descriptor, $0, $1) }) == 0 else { return nil }
        let line = #"{"request":"\#(request.rawValue)"}"# + "\n"
        guard line.withCString({ send(descriptor, $0, line.utf8.count, Int32(MSG_NOSIGNAL)) }) == line.utf8.count else { return nil }
        var answer = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while answer.count < 1 << 20 {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            answer += buffer[0..<count]
            if answer.last == UInt8(ascii: "\n") { break }
        }
        guard answer.last == UInt8(ascii: "\n") else { return nil }
        return String(decoding: answer.dropLast(), as: UTF8.self)
    }
}
