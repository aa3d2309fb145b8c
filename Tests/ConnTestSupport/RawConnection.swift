import Foundation

/// A plain TCP connection to a loopback port, driven byte by byte: what a slow or hostile client
/// does (connect and say nothing, send half a request) that no HTTP client library will do.
public final class RawConnection: @unchecked Sendable {
    let descriptor: Int32

    public struct Refused: Error {}

    public init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(descriptor)
            throw Refused()
        }
    }

    deinit { close(descriptor) }

    /// Sends `text`; false when the peer has gone.
    @discardableResult
    public func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return Foundation.send(descriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count
    }

    /// Whether the peer has closed the connection already (nothing waits).
    public var closedByPeer: Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let received = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if received > 0 { continue }  // an answer: read past it to see what follows
            return received == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)
        }
    }

    /// Reads until the peer closes the connection or `seconds` pass; what it sent, and whether it
    /// closed, with the time that took (timed on the thread that waits).
    public func awaitClose(within seconds: Int) async -> (closed: Bool, received: String, after: Duration) {
        let descriptor = self.descriptor
        return await onOwnThread {
            var wait = timeval(tv_sec: seconds, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
            let clock = ContinuousClock()
            let start = clock.now
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while start.duration(to: clock.now) < .seconds(seconds) {
                let count = recv(descriptor, &buffer, buffer.count, 0)
                if count > 0 { received += buffer[0..<count]; continue }
                let closed = count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)
                return (closed, String(decoding: received, as: UTF8.self), start.duration(to: clock.now))
            }
            return (false, String(decoding: received, as: UTF8.self), start.duration(to: clock.now))
        }
    }

    /// Reads one answer's worth: until `marker` has arrived (or `seconds` pass).
    public func read(until marker: String, within seconds: Int) async -> String {
        let descriptor = self.descriptor
        return await onOwnThread {
            var wait = timeval(tv_sec: 0, tv_usec: 200_000)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
            let deadline = Date().addingTimeInterval(Double(seconds))
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while Date() < deadline, !String(decoding: received, as: UTF8.self).contains(marker) {
                let count = recv(descriptor, &buffer, buffer.count, 0)
                if count > 0 { received += buffer[0..<count] } else if count == 0 { break }
            }
            return String(decoding: received, as: UTF8.self)
        }
    }
}
