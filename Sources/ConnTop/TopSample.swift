import ConnCore
import ConnProbe
import Foundation

/// What a source of `conn top` knows at one moment. Every field is optional: the running agent
/// tells all of it, a source that has not looked yet tells nothing.
struct TopSample: Sendable {
    var at: Date
    var network: NetworkState?
    /// nil: no link held (or not known).
    var link: ConnectionState?
    var outbox: OutboxCounts?
    var clock: ClockReading?
    /// A look's per-target results and when it ended; nil when this sample has no new look.
    var look: (results: [ProbeResult], at: Date)?

    init(at: Date) { self.at = at }

    struct OutboxCounts: Sendable, Equatable {
        var pending = 0, sending = 0, sent = 0, failed = 0
    }

    struct ClockReading: Sendable, Equatable {
        var offsetMs: Double
        var uncertaintyMs: Double
        var measuredAt: Date
    }
}
