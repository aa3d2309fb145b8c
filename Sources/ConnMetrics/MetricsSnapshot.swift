import ConnCore
import ConnProbe
import Foundation

/// What a long-running conn knows at the moment of a scrape, as plain values: the exposition
/// (`MetricsExposition`) turns it into Prometheus's text format. Nothing in it is a secret:
/// targets are written without user:password, and no message content or address is kept.
public struct MetricsSnapshot: Sendable {
    /// The connectivity state now, with its reason and when it began (nil before the first look).
    public var network: NetworkState?
    /// How many times the state changed, by (from, to).
    public var changes: [StateChange: Int] = [:]
    /// The last look's per-target families, written once per look rather than at every scrape
    /// (with 100 targets that is ~700 series, most of a scrape's time): `MetricsExposition.targets`.
    public var targetsText = ""
    /// The cumulative families of every look so far (`ProbeHistory`): histograms and failures.
    public var historyText = ""

    /// Whether the live link to the server is connected (nil: no link held).
    public var linkConnected: Bool?
    /// The back end's clock offset and its bound, in milliseconds (nil: not measured).
    public var clockOffsetMs: Double?
    public var clockUncertaintyMs: Double?
    /// When that offset was measured (a stored one keeps its own time).
    public var clockMeasuredAt: Date?
    /// Estimates offered to chronyd by outcome (sent, withheld, unavailable); nil without a
    /// chrony feed. The last offset sent (ms) and when it was for.
    public var chronySamples: [String: Int]?
    public var chronyOffsetMs: Double?
    public var chronySentAt: Date?
    /// Outbox items by kind (message, request), then state (pending, sending, sent, failed); nil
    /// when not read.
    public var outbox: [String: [String: Int]]?
    /// Delivery attempts by outcome (sent, retrying, rejected, authRefused, expired); nil when
    /// nothing delivers (`conn watch` without `--flush-outbox`), so no family claims a count.
    public var deliveries: [String: Int]?
    /// Messages in the inbox cache, and when it was last synced (nil: unknown, never).
    public var inboxMessages: Int?
    public var lastSync: Date?

    public struct StateChange: Hashable, Sendable {
        public var from: NetworkStatus
        public var to: NetworkStatus
        public init(from: NetworkStatus, to: NetworkStatus) {
            self.from = from
            self.to = to
        }
    }

    public init() {}
}
