import ConnProbe

/// Where a monitor's looks and kernel notifications come from: the real connectivity check and
/// rtnetlink, or a test's own (a look that answers when the test says, a stream of bursts).
public struct MonitorSource: Sendable {
    /// One look at everything the monitor watches.
    public var look: @Sendable () async -> ConnectivityCheck.Snapshot
    /// The way out from the routing table alone, after a look's answer (see `ConnectivityCheck.wayOut`).
    public var wayOut: @Sendable (ConnectivityCheck.Snapshot) -> (interface: ProbeInterface?, path: NetworkPath)
    /// The kernel's notifications, a burst per event; nil where there are none (the monitor polls).
    public var kernelEvents: AsyncStream<NetlinkMonitor.Event>?
    /// An internet check that a look did not wait for has ended: look again to show it.
    public var internetSettled: AsyncStream<Void>?

    public init(look: @escaping @Sendable () async -> ConnectivityCheck.Snapshot,
                wayOut: @escaping @Sendable (ConnectivityCheck.Snapshot) -> (interface: ProbeInterface?, path: NetworkPath),
                kernelEvents: AsyncStream<NetlinkMonitor.Event>?, internetSettled: AsyncStream<Void>? = nil) {
        self.look = look
        self.wayOut = wayOut
        self.kernelEvents = kernelEvents
        self.internetSettled = internetSettled
    }

    /// The check, and rtnetlink where the socket can be opened. The targets' verdict does not
    /// wait for the internet check (`ConnectivityCheck.run(onInternetSettled:)`).
    public static func live(_ check: ConnectivityCheck) -> MonitorSource {
        let (settled, settles) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        return MonitorSource(look: { await check.run(onInternetSettled: { settles.yield() }) }, wayOut: { check.wayOut(after: $0) },
                             kernelEvents: NetlinkMonitor()?.events(), internetSettled: settled)
    }
}
