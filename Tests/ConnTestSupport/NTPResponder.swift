import Foundation

/// A minimal NTP server for tests (RFC 4330 answers) on a loopback UDP port, whose clock is the
/// real one shifted by `skewMS`. Serves until closed.
public final class NTPResponder: @unchecked Sendable {
    public let port: Int
    private let descriptor: Int32
    private let skewMS: Double

    /// A reply a hostile or broken server sends instead of a good one.
    public enum Fault: Sendable {
        /// Leap indicator 3: "my clock is not synchronised".
        case unsynchronised
        /// Stratum 16: the same, said the other way.
        case stratum16
        /// A transmit timestamp of 0 (read as 1900: −58 years ± 68 years).
        case zeroTransmit
    }
    private let fault: Fault?

    public init(skewMS: Double, fault: Fault? = nil) throws {
        self.skewMS = skewMS
        self.fault = fault
        let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        self.port = Int(UInt16(bigEndian: address.sin_port))
        self.descriptor = descriptor
        Thread.detachNewThread { [self] in serve() }
    }

    public func close() { shutdown(descriptor, Int32(SHUT_RDWR)); _ = Foundation.close(descriptor) }

    private func serve() {
        var buffer = [UInt8](repeating: 0, count: 512)
        while true {
            var peer = sockaddr_storage()
            var peerLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let count = withUnsafeMutablePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(descriptor, &buffer, buffer.count, 0, $0, &peerLength) }
            }
            guard count >= 48 else { return }  // closed
            let receive = Self.timestamp(Date().timeIntervalSince1970 * 1000 + skewMS)
            var reply = [UInt8](repeating: 0, count: 48)
            reply[0] = 0b00_100_100  // LI 0, version 4, mode 4 (server)
            reply[1] = 2  // stratum
            reply.replaceSubrange(24..<32, with: buffer[40..<48])  // originate = the client's transmit
            reply.replaceSubrange(32..<40, with: receive)
            reply.replaceSubrange(40..<48, with: Self.timestamp(Date().timeIntervalSince1970 * 1000 + skewMS))
            switch fault {
            case .unsynchronised: reply[0] = 0b11_100_100
            case .stratum16: reply[1] = 16
            case .zeroTransmit: reply.replaceSubrange(40..<48, with: [UInt8](repeating: 0, count: 8))
            case nil: break
            }
            _ = withUnsafePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(descriptor, reply, reply.count, 0, $0, peerLength) }
            }
        }
    }

    static func timestamp(_ milliseconds: Double) -> [UInt8] {
        let seconds = milliseconds / 1000 + 2_208_988_800
        let whole = UInt32(truncatingIfNeeded: UInt64(seconds))
        let fraction = UInt32(truncatingIfNeeded: UInt64((seconds - seconds.rounded(.down)) * 4_294_967_296))
        return withUnsafeBytes(of: whole.bigEndian, Array.init) + withUnsafeBytes(of: fraction.bigEndian, Array.init)
    }
}
