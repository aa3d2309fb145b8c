import Foundation
import Testing
@testable import ConnLive

/// Reading the kinds of change out of a datagram of rtnetlink messages: the header's length
/// and type, 4-byte alignment, and a datagram the kernel would never send (a length below the
/// header's) ends the walk instead of looping.
@Suite("netlink monitor")
struct NetlinkMonitorTests {
    /// One message: a 16-byte header (length, type, flags, sequence, port) and a payload.
    static func message(type: UInt16, payload: Int) -> [UInt8] {
        let length = UInt32(16 + payload)
        var bytes = withUnsafeBytes(of: length.littleEndian, Array.init) + withUnsafeBytes(of: type.littleEndian, Array.init)
        bytes += [UInt8](repeating: 0, count: 10 + payload)
        // Padded to 4 bytes, as the kernel aligns each message.
        bytes += [UInt8](repeating: 0, count: (4 - bytes.count % 4) % 4)
        return bytes
    }

    @Test("a burst's kinds: link, route and address messages, unaligned payloads, other types ignored")
    func kinds() {
        let datagram = Self.message(type: 16, payload: 17)  // RTM_NEWLINK, padded by 3
            + Self.message(type: 30, payload: 8)  // RTM_NEWNEIGH: not a kind watched
            + Self.message(type: 25, payload: 40)  // RTM_DELROUTE
            + Self.message(type: 21, payload: 5)  // RTM_DELADDR
        #expect(NetlinkMonitor.kinds(in: datagram[...]) == ["link", "route", "address"])
        #expect(NetlinkMonitor.kinds(in: Self.message(type: 30, payload: 0)[...]).isEmpty)
    }

    @Test("a truncated or malformed datagram ends the walk: a short tail, a length below the header's")
    func malformed() {
        let link = Self.message(type: 16, payload: 4)
        // A tail shorter than a header is not read.
        #expect(NetlinkMonitor.kinds(in: (link + [0x20, 0, 0])[...]) == ["link"])
        // A zero length would not advance: the walk stops after reading that header's type.
        var zero = Self.message(type: 24, payload: 0)
        zero.replaceSubrange(0..<4, with: [0, 0, 0, 0])
        #expect(NetlinkMonitor.kinds(in: (zero + link)[...]) == ["route"])
        // A slice that does not start at index 0 (the reader's buffer is reused).
        let buffer = [UInt8](repeating: 0xff, count: 5) + link
        #expect(NetlinkMonitor.kinds(in: buffer[5...]) == ["link"])
    }

    @Test("a stream whose consumer goes away ends its thread and closes its socket: 20 reloads leave nothing behind")
    func consumersGoingAwayLeaveNothing() async throws {
        var monitors: [NetlinkMonitor] = []
        for _ in 0..<20 {
            let monitor = try #require(NetlinkMonitor(), "netlink is needed (rtnetlink is on every Linux)")
            let consumer = Task { for await _ in monitor.events() {} }
            try await Task.sleep(for: .milliseconds(20))
            #expect(!monitor.hasStopped, "the thread runs while its stream is read")
            consumer.cancel()
            monitors.append(monitor)
        }
        // Each thread ends and closes its socket (it used to stay blocked in recv for good).
        let deadline = ContinuousClock.now + .seconds(10)
        while monitors.contains(where: { !$0.hasStopped }) && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        let running = monitors.filter { !$0.hasStopped }.count
        #expect(running == 0, "\(running) of 20 threads still run")
    }
}
