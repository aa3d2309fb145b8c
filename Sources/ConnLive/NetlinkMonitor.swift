import ConnCore
import Foundation
import Synchronization

/// Kernel notifications of link, address and route changes (rtnetlink), as a stream of
/// "something changed" signals: the monitor re-probes on each, so it needs no parsing beyond
/// the message type. Runs on its own thread, blocked in poll(2), costing nothing while idle; a
/// burst of messages (a link going down with its addresses and routes) is one event. When the
/// stream's consumer goes away (a watch ends, the agent reloads), the thread ends and the socket
/// is closed: each reload used to leave a thread blocked in recv(2) and a socket behind.
public final class NetlinkMonitor: @unchecked Sendable {
    public enum Event: Sendable {
        /// Links, addresses or routes were added, changed or removed (the kinds seen in one burst).
        case changed(kinds: Set<String>)
        /// The kernel dropped notifications (ENOBUFS): the state must be read again in full.
        case overrun
    }

    private let descriptor: Int32

    /// Opens and binds the socket; nil where netlink is not available (the caller polls then).
    public init?() {
        guard let fd = RoutingNotifications.openSocket() else { return nil }
        descriptor = fd
    }

    /// How long the socket must stay quiet before a burst counts as over: a link going down
    /// brings its addresses and routes along within about a millisecond.
    static let quietWindowMilliseconds: Int32 = 1
    /// A burst that never goes quiet (a flapping link) is still reported this often.
    static let longestBurst: Duration = .milliseconds(50)

    /// Whether `events()` took the socket (its thread closes it); else `deinit` does.
    private var streaming = false
    /// The thread has ended and closed the socket (the consumer went away, or reading failed).
    private let stopped = Flag()
    var hasStopped: Bool { stopped.value.withLock { $0 } }

    private final class Flag: Sendable {
        let value = Mutex(false)
    }

    deinit {
        if !streaming { close(descriptor) }
    }

    /// The events, one per burst, until the stream's consumer goes away. Call it once.
    public func events() -> AsyncStream<Event> {
        let fd = descriptor
        streaming = true
        // The consumer's going away is written to this pipe, which the thread polls beside the socket.
        var wake: [Int32] = [-1, -1]
        guard pipe(&wake) == 0 else {
            close(fd)
            return AsyncStream { $0.finish() }
        }
        for end in wake { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let (wakeRead, wakeWrite) = (wake[0], wake[1])
        return AsyncStream { continuation in
            continuation.onTermination = { _ in
                var byte: UInt8 = 1
                _ = write(wakeWrite, &byte, 1)
            }
            let stopped = self.stopped
            let thread = Thread {
                defer {
                    close(fd)
                    close(wakeRead)
                    close(wakeWrite)
                    stopped.value.withLock { $0 = true }
                }
                var buffer = [UInt8](repeating: 0, count: 64 * 1024)
                var burst = Set<String>()
                var overrun = false
                var burstBegan = ContinuousClock.now
                while true {
                    // Waits for the first message of a burst, then reads on until the socket has
                    // been quiet for the window; ends as soon as the consumer has gone.
                    let inBurst = !burst.isEmpty || overrun
                    var waiting = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
                    let ready = poll(&waiting, 2, inBurst ? Self.quietWindowMilliseconds : -1)
                    if ready < 0 && errno == EINTR { continue }
                    if waiting[1].revents != 0 {
                        continuation.finish()
                        return
                    }
                    if inBurst && (ready <= 0 || ContinuousClock.now - burstBegan > Self.longestBurst) {
                        if overrun { continuation.yield(.overrun) } else { continuation.yield(.changed(kinds: burst)) }
                        burst = []
                        overrun = false
                        continue
                    }
                    if ready <= 0 { continue }
                    let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                    if count < 0 {
                        if errno == EINTR || errno == EAGAIN { continue }
                        if errno == ENOBUFS {
                            if burst.isEmpty && !overrun { burstBegan = .now }
                            overrun = true
                            continue
                        }
                        continuation.finish()
                        return
                    }
                    let kinds = Self.kinds(in: buffer[..<count])
                    if burst.isEmpty && !overrun && !kinds.isEmpty { burstBegan = .now }
                    burst.formUnion(kinds)
                }
            }
            thread.name = "conn-netlink"
            thread.start()
        }
    }

    /// The kinds of change in one datagram of netlink messages (16-byte headers, 4-byte aligned).
    static func kinds(in datagram: ArraySlice<UInt8>) -> Set<String> {
        var kinds = Set<String>()
        var offset = datagram.startIndex
        while offset + 16 <= datagram.endIndex {
            let length = Int(datagram[offset]) | Int(datagram[offset + 1]) << 8 | Int(datagram[offset + 2]) << 16 | Int(datagram[offset + 3]) << 24
            let type = Int(datagram[offset + 4]) | Int(datagram[offset + 5]) << 8
            if let kind = kind(of: type) { kinds.insert(kind) }
            guard length >= 16 else { break }
            offset += (length + 3) & ~3
        }
        return kinds
    }

    static func kind(of type: Int) -> String? {
        switch type {
        case 16, 17: "link"  // RTM_NEWLINK, RTM_DELLINK
        case 20, 21: "address"  // RTM_NEWADDR, RTM_DELADDR
        case 24, 25: "route"  // RTM_NEWROUTE, RTM_DELROUTE
        case 32, 33: "route"  // RTM_NEWRULE, RTM_DELRULE: which table a route is looked up in
        default: nil
        }
    }
}
