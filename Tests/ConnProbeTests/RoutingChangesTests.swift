@testable import ConnProbe
import Foundation
import Glibc
import Testing

/// When `probe --count` looks its routes up again. The kernel's side is ProbeCountPathTests (a
/// namespace); here a datagram socket pair stands for the netlink socket.
@Suite("routing changes between rounds")
struct RoutingChangesTests {
    @Test("fresh at the first ask, after a notification, after an error other than EAGAIN, and once a second; kept otherwise")
    func whenFresh() throws {
        var pair: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0, &pair) == 0)
        defer { close(pair[1]) }
        let changes = RoutingChanges(descriptor: pair[0])  // closes pair[0]
        let start = ContinuousClock.now
        #expect(changes.needFreshLookups(now: start))
        #expect(!changes.needFreshLookups(now: start + .milliseconds(10)))
        // Two notifications queued: one fresh look-up, and the queue is drained.
        for _ in 0..<2 { #expect(write(pair[1], "n", 1) == 1) }
        #expect(changes.needFreshLookups(now: start + .milliseconds(20)))
        #expect(!changes.needFreshLookups(now: start + .milliseconds(30)))
        // Nothing heard for a second: look again anyway.
        #expect(!changes.needFreshLookups(now: start + .milliseconds(1019)))
        #expect(changes.needFreshLookups(now: start + .milliseconds(1020)))
        #expect(!changes.needFreshLookups(now: start + .milliseconds(1030)))
    }

    @Test("without netlink every ask is fresh")
    func withoutNetlink() {
        let changes = RoutingChanges(descriptor: nil)
        let now = ContinuousClock.now
        #expect(changes.needFreshLookups(now: now) && changes.needFreshLookups(now: now) && changes.needFreshLookups(now: now))
    }

    @Test("a descriptor that fails to read (closed under it: EBADF) makes every ask fresh, as ENOBUFS does")
    func readError() {
        let changes = RoutingChanges(descriptor: 1_000_000)  // no such descriptor
        let now = ContinuousClock.now
        #expect(changes.needFreshLookups(now: now) && changes.needFreshLookups(now: now))
    }
}
