import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Talks to the running agent over its control socket: one JSON line asked, one answered. Quick
/// by design (a second at most): `conn send` asks after its own attempt, and must not hang on an
/// agent that does not answer.
public enum AgentClient {
    /// What can be asked.
    public enum Request: Sendable, Equatable {
        /// The agent's status (`AgentStatus`, as JSON).
        case status
        /// These messages are the agent's now (their sender's own attempt did not deliver them):
        /// try them at once if the server is reachable, then on the agent's schedule.
        /// Answered `{"ok":true}`.
        case wake(handingOver: [String])
        /// Look at the connection now, beside the agent's schedule. Answered `{"ok":true}`.
        case look

        /// At most this many ids in one request (`conn send` hands over one).
        public static let maximumIDs = 100

        /// The request's line: `{"request":"status"}`, `{"request":"wake","ids":[…]}`.
        var line: String {
            let object: [String: Any]
            switch self {
            case .status: object = ["request": "status"]
            case .wake(let ids): object = ["request": "wake", "ids": ids]
            case .look: object = ["request": "look"]
            }
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
            return String(decoding: data, as: UTF8.self) + "\n"
        }

        /// A request read from its line; nil for anything else (too long, not JSON, an unknown
        /// request, ids that are not a short list of short strings).
        public init?(line: some Collection<UInt8>) {
            guard line.count <= 16_384,
                let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                let name = object["request"] as? String
            else { return nil }
            switch name {
            case "status": self = .status
            case "look": self = .look
            case "wake":
                let ids = object["ids"] ?? [String]()
                guard let ids = ids as? [String], ids.count <= Self.maximumIDs,
                    ids.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 64 })
                else { return nil }
                self = .wake(handingOver: ids)
            default: return nil
            }
        }
    }

    /// The most an answer may hold: a status lists every watched target (~830 bytes each), so
    /// 1 MiB cut an agent watching 1,300 targets short ("does not answer"); 64 MiB is 80,000.
    static let maximumAnswerBytes = 64 << 20

    /// The agent's answer, or nil when no agent listens (or it did not answer in time: `timeout`
    /// is how long each read may wait).
    public static func ask(_ request: Request, at place: AgentPlace, timeout: Duration = .seconds(1)) -> String? {
        guard let address = UnixSocketAddress(place.socketPath) else { return nil }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var limit = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: Int(timeout.components.attoseconds / 1_000_000_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        guard address.withSockaddr({ connect(descriptor, $0, $1) }) == 0 else { return nil }
        let line = request.line
        guard line.withCString({ send(descriptor, $0, line.utf8.count, Int32(MSG_NOSIGNAL)) }) == line.utf8.count else { return nil }
        var answer = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while answer.count < maximumAnswerBytes {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            answer += buffer[0..<count]
            if answer.last == UInt8(ascii: "\n") { break }
        }
        guard answer.last == UInt8(ascii: "\n") else { return nil }
        return String(decoding: answer.dropLast(), as: UTF8.self)
    }
}
