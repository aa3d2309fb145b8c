import ConnCore
import Foundation

/// Clock samples from an NTP server (SNTP, RFC 4330): a 48-byte client request carrying t1 as
/// its transmit timestamp; the answer carries t2 (receive) and t3 (transmit).
struct SNTPSampler {
    let host: String
    let port: Int
    let clock: SampleClock
    let timeout: Duration
    var egress = Egress.any

    /// Seconds from 1900 (NTP's era 0) to 1970.
    static let ntpEpochOffset = 2_208_988_800.0

    func samples(_ count: Int, interval: Duration) async throws -> [ClockSample] {
        let socket = try openSocket()
        defer { close(socket) }
        _ = try exchange(socket)  // warm-up: ARP, the server's first-packet path
        var samples: [ClockSample] = []
        for index in 0..<count {
            if index > 0 { try await Task.sleep(for: interval) }
            samples.append(try exchange(socket))
        }
        return samples
    }

    private func openSocket() throws -> Int32 {
        var hints = addrinfo()
        hints.ai_family = egress.family.map { $0 == .ipv4 ? AF_INET : AF_INET6 } ?? AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let entry = list?.pointee else {
            throw ConnError.unavailable(.nxdomain, "the NTP server name \(host) does not resolve")
        }
        defer { freeaddrinfo(list) }
        let descriptor = socket(entry.ai_family, entry.ai_socktype, entry.ai_protocol)
        guard descriptor >= 0 else { throw ConnError.internalError("socket: \(String(cString: strerror(errno)))") }
        let bound = egress.apply(toDescriptor: descriptor, family: entry.ai_family)
        guard bound == 0 else {
            close(descriptor)
            throw ConnError.unavailable(.unreachable, "cannot bind to \(egress.description) for the NTP server \(host):\(port): \(String(cString: strerror(bound)))")
        }
        var wait = timeval(tv_sec: Int(timeout.nanoseconds / 1_000_000_000), tv_usec: Int((timeout.nanoseconds % 1_000_000_000) / 1000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        guard connect(descriptor, entry.ai_addr, entry.ai_addrlen) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw ConnError.unavailable(.unreachable, "cannot reach the NTP server \(host):\(port): \(reason)")
        }
        return descriptor
    }

    private func exchange(_ socket: Int32) throws -> ClockSample {
        var request = [UInt8](repeating: 0, count: 48)
        request[0] = 0b00_100_011  // LI 0, version 4, mode 3 (client)
        let t1 = clock.nowMS()
        let transmit = Self.ntpTimestamp(milliseconds: t1)
        request.replaceSubrange(40..<48, with: transmit)
        guard send(socket, request, request.count, 0) == request.count else {
            throw ConnError.unavailable(.unreachable, "cannot send to the NTP server \(host):\(port): \(String(cString: strerror(errno)))")
        }
        var answer = [UInt8](repeating: 0, count: 512)
        let received = recv(socket, &answer, answer.count, 0)
        let t4 = clock.nowMS()
        if received < 0 {
            if errno == EAGAIN || errno == EWOULDBLOCK {
                throw ConnError.temporary(.timeout, "the NTP server \(host):\(port) did not answer within \(TimeFormatting.duration(timeout))")
            }
            throw ConnError.unavailable(.refused, "the NTP server \(host):\(port) cannot be reached: \(String(cString: strerror(errno)))")
        }
        guard received >= 48 else { throw ConnError.dataError(.badNTPAnswer, "the NTP answer from \(host) is \(received) bytes, not 48") }
        guard answer[0] & 0b111 == 4 else { throw ConnError.dataError(.badNTPAnswer, "the answer from \(host) is not an NTP server reply (mode \(answer[0] & 0b111))") }
        // Anyone can send a datagram: only an answer to our request counts, kiss-o'-death included.
        guard Array(answer[24..<32]) == transmit else {
            throw ConnError.dataError(.badNTPAnswer, "the NTP answer from \(host) does not answer our request (originate timestamp differs)")
        }
        guard answer[1] != 0 else {
            throw ConnError.temporary(.ntpKissOfDeath, "the NTP server \(host) refused to answer (kiss-o'-death \(Self.kissCode(answer[12..<16])))")
        }
        // A server that says its own clock is not synchronised (leap indicator 3, stratum 16 or
        // more) or sends no transmit time is not a clock to measure against, as sntp and chrony judge.
        guard answer[0] >> 6 != 3 else {
            throw ConnError.dataError(.badNTPAnswer, "the NTP server \(host) says its clock is not synchronised (leap indicator 3)")
        }
        guard answer[1] < 16 else {
            throw ConnError.dataError(.badNTPAnswer, "the NTP server \(host) says its clock is not synchronised (stratum \(answer[1]))")
        }
        guard answer[40..<48].contains(where: { $0 != 0 }), answer[32..<40].contains(where: { $0 != 0 }) else {
            throw ConnError.dataError(.badNTPAnswer, "the NTP answer from \(host) has no receive or transmit time")
        }
        return ClockSample(t1: t1, t2: Self.milliseconds(Array(answer[32..<40])), t3: Self.milliseconds(Array(answer[40..<48])), t4: t4)
    }

    /// A kiss code is four ASCII letters or digits (RFC 5905, 7.4: RATE, DENY…); anything else is
    /// shown as hex, never as raw bytes on the terminal.
    static func kissCode(_ bytes: ArraySlice<UInt8>) -> String {
        let printable = bytes.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x20 }
        if printable { return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces) }
        return "0x" + bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// Unix milliseconds → the 64-bit NTP format (seconds since 1900, 32-bit fraction), big-endian.
    static func ntpTimestamp(milliseconds: Double) -> [UInt8] {
        let seconds = milliseconds / 1000 + ntpEpochOffset
        let whole = UInt32(truncatingIfNeeded: UInt64(seconds))
        let fraction = UInt32(truncatingIfNeeded: UInt64((seconds - seconds.rounded(.down)) * 4_294_967_296))
        return withUnsafeBytes(of: whole.bigEndian, Array.init) + withUnsafeBytes(of: fraction.bigEndian, Array.init)
    }

    static func milliseconds(_ bytes: [UInt8]) -> Double {
        let whole = bytes[0..<4].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let fraction = bytes[4..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return (Double(whole) - ntpEpochOffset + Double(fraction) / 4_294_967_296) * 1000
    }
}
