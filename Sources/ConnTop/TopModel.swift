import ConnCore
import ConnProbe
import Foundation

/// Everything `conn top` shows, built from its source's samples and the keys pressed: the state,
/// the path, the link and clock, the outbox, each target's latencies over time, the last events.
/// A plain value with no terminal in it, so every rule is tested without one.
struct TopModel: Sendable {
    /// Each target's last looks: latency in ms, or nil for a look that failed.
    struct Target: Sendable {
        var name: String
        var last: ProbeResult
        var trace: [Double?] = []
    }

    /// How many looks each target's trace keeps (a sparkline's width is at most this).
    static let traceLength = 120
    /// How many events are kept (the screen shows what fits).
    static let eventLimit = 50

    var server: String?
    /// Where the data comes from: "agent pid 1234" or "own monitor".
    var source = ""
    /// Said once when the source changed (the agent stopped answering).
    var sourceNote: String?
    var network: NetworkState?
    var link: ConnectionState?
    var outbox: TopSample.OutboxCounts?
    var clock: TopSample.ClockReading?
    private(set) var targets: [Target] = []
    private(set) var events: [(at: Date, text: String)] = []
    /// The target whose rungs are shown (arrows move it).
    private(set) var selected = 0
    /// While paused, samples are not applied (the screen holds still, as top's and mtr's `p`).
    var paused = false
    private var lastLookAt: Date?

    /// Takes a sample in: the fields it carries replace the old, a change of state or link is an
    /// event, and a new look adds to each target's trace.
    mutating func apply(_ sample: TopSample) {
        guard !paused else { return }
        if let network = sample.network {
            if network.state != self.network?.state || network.reason != self.network?.reason {
                let reason = network.reason.map { " (\($0.rawValue))" } ?? ""
                event(at: sample.at, self.network == nil ? "state: \(network.state.rawValue)\(reason)" : "state: \(self.network!.state.rawValue) → \(network.state.rawValue)\(reason)")
            } else if network.interface != self.network?.interface, let interface = network.interface {
                event(at: sample.at, "path: now via \(interface.name) (\(interface.kind.rawValue))")
            }
            self.network = network
        }
        if sample.link?.label != link?.label, let label = sample.link?.label ?? (link != nil ? "off" : nil) {
            event(at: sample.at, "link: \(label)")
        }
        link = sample.link
        if let outbox = sample.outbox { self.outbox = outbox }
        if let clock = sample.clock { self.clock = clock }
        if let look = sample.look, look.at != lastLookAt {
            lastLookAt = look.at
            for result in look.results { record(result) }
        }
    }

    /// Notes something outside the samples (the source changed, a key's effect).
    mutating func event(at date: Date, _ text: String) {
        events.append((date, TerminalSanitizer.sanitize(text, keepNewlines: false)))
        if events.count > Self.eventLimit { events.removeFirst(events.count - Self.eventLimit) }
    }

    mutating func select(_ step: Int) {
        guard !targets.isEmpty else { return }
        selected = min(max(0, selected + step), targets.count - 1)
    }

    var selectedTarget: Target? { targets.indices.contains(selected) ? targets[selected] : nil }

    private mutating func record(_ result: ProbeResult) {
        let name = ProbeMetricsFamilies.label(result)
        let sample: Double? = result.reachable ? result.totalMs : nil
        if let index = targets.firstIndex(where: { $0.name == name }) {
            targets[index].last = result
            targets[index].trace.append(sample)
            if targets[index].trace.count > Self.traceLength { targets[index].trace.removeFirst() }
        } else {
            targets.append(Target(name: name, last: result, trace: [sample]))
        }
    }
}

extension ConnectionState {
    /// A short word for the link: "connected", "connecting", "disconnected".
    var label: String {
        isConnected ? "connected" : (isInitializing ? "connecting" : "disconnected")
    }
}
