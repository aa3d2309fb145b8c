import ConnClock
import ConnCommandKit
import ConnCore
import ConnLive
import ConnProbe
import Foundation

/// What `conn agent status` shows (docs/json/agent-status.schema.json): the running agent's view
/// of the connection, the link, the outbox and the inbox sync.
public struct AgentStatus: Codable, Sendable, TextRenderable {
    public struct Outbox: Codable, Sendable, Equatable {
        public var pending = 0, sending = 0, sent = 0, failed = 0
        /// Why delivery is paused (the server refused the credentials), or nil.
        public var pausedBecause: String?
        /// Messages waiting for servers other than the agent's, by origin (they are among
        /// `pending`; this agent does not send them); nil when there are none.
        public var waitingForOtherServers: [String: Int]?
    }

    public struct Delivery: Codable, Sendable, Equatable {
        public var at: Date
        public var sent: Int
        public var retrying: Int
        public var failed: Int
        public var error: String?
    }

    /// The last inbox sync (ConnLive runs it).
    public typealias Sync = InboxSyncResult

    public var pid: Int32
    public var startedAt: Date
    public var databaseFile: String
    public var server: String
    public var network: NetworkState?
    public var connectionState: ConnectionState?
    public var outbox = Outbox()
    public var lastDelivery: Delivery?
    public var lastSync: Sync?
    public var lastError: String?
    /// The clock offset last stored (by the link's ping/pongs or `conn clock-offset`): what
    /// `clock-offset --convert` uses, and how old it is.
    public var clockOffset: StoredOffset?
    /// The last look's per-target results, and when it ended (nil before the first): what
    /// `conn top` draws its latencies from.
    public var targets: [ProbeResult]?
    public var lookedAt: Date?

    private enum CodingKeys: String, CodingKey {
        case pid, startedAt, databaseFile, server, connectionState, outbox, lastDelivery, lastSync, lastError, clockOffset, targets, lookedAt
    }

    init(pid: Int32, startedAt: Date, databaseFile: String, server: String) {
        self.pid = pid
        self.startedAt = startedAt
        self.databaseFile = databaseFile
        self.server = server
    }

    /// The state's keys at the top level, as in every other JSON form.
    public func encode(to encoder: any Encoder) throws {
        try NetworkState.encode(network, to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(pid, forKey: .pid)
        try container.encode(startedAt, forKey: .startedAt)
        try container.encode(databaseFile, forKey: .databaseFile)
        try container.encode(server, forKey: .server)
        try container.encode(connectionState, forKey: .connectionState)
        try container.encode(outbox, forKey: .outbox)
        try container.encode(lastDelivery, forKey: .lastDelivery)
        try container.encode(lastSync, forKey: .lastSync)
        try container.encode(lastError, forKey: .lastError)
        try container.encode(clockOffset, forKey: .clockOffset)
        try container.encode(targets, forKey: .targets)
        try container.encode(lookedAt, forKey: .lookedAt)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        pid = try container.decode(Int32.self, forKey: .pid)
        startedAt = try container.decode(Date.self, forKey: .startedAt)
        databaseFile = try container.decode(String.self, forKey: .databaseFile)
        server = try container.decode(String.self, forKey: .server)
        network = try? NetworkState(from: decoder)  // all null before the first look
        connectionState = try container.decodeIfPresent(ConnectionState.self, forKey: .connectionState)
        outbox = try container.decode(Outbox.self, forKey: .outbox)
        lastDelivery = try container.decodeIfPresent(Delivery.self, forKey: .lastDelivery)
        lastSync = try container.decodeIfPresent(Sync.self, forKey: .lastSync)
        lastError = try container.decodeIfPresent(String.self, forKey: .lastError)
        clockOffset = try container.decodeIfPresent(StoredOffset.self, forKey: .clockOffset)
        targets = try container.decodeIfPresent([ProbeResult].self, forKey: .targets)
        lookedAt = try container.decodeIfPresent(Date.self, forKey: .lookedAt)
    }

    public func renderText(style: TextStyle) -> String {
        let clean = { (text: String) in TerminalSanitizer.sanitize(text, keepNewlines: false) }
        let age = { (date: Date) in TimeFormatting.ago(seconds: -date.timeIntervalSinceNow) }
        var lines = ["agent: pid \(pid), running for \(TimeFormatting.duration(seconds: (-startedAt.timeIntervalSinceNow).rounded())), server \(clean(server))"]
        if let network {
            var line = "state: " + (network.state == .online ? style.green(network.summary) : style.red(network.summary))
            if let since = network.since { line += " since \(age(since))" }
            lines.append(line)
        } else {
            lines.append("state: not known yet (the first check is running)")
        }
        lines.append("link: " + (connectionState.map { "\($0)" } ?? "off"))
        var outboxLine = "outbox: \(outbox.pending) waiting, \(outbox.sending) being sent, \(outbox.failed) failed, \(outbox.sent) sent"
        if let paused = outbox.pausedBecause { outboxLine += style.red(" — paused: \(clean(paused))") }
        lines.append(outboxLine)
        if let elsewhere = outbox.waitingForOtherServers {
            let list = elsewhere.sorted { $0.key < $1.key }.map { "\($0.value) for \(clean($0.key))" }.joined(separator: ", ")
            lines.append("  of those, waiting for their own servers (not sent by this agent): \(list)")
        }
        if let delivery = lastDelivery {
            lines.append("last delivery: \(age(delivery.at)), \(delivery.sent) sent, \(delivery.retrying) retrying, \(delivery.failed) failed"
                + (delivery.error.map { " (\(clean($0)))" } ?? ""))
        } else {
            lines.append("last delivery: none yet")
        }
        if let sync = lastSync {
            lines.append("last inbox sync: \(age(sync.at)), \(sync.text)")
        } else {
            lines.append("last inbox sync: none yet")
        }
        if let clock = clockOffset {
            lines.append(String(format: "clock offset: %+.1f ms ±%.1f ms (%@), measured %@", clock.offsetMs, clock.uncertaintyMs,
                                clean(clock.method), age(clock.measuredAt)))
        } else {
            lines.append("clock offset: none stored yet")
        }
        for target in targets ?? [] {
            let verdict = target.reachable ? style.green("reachable") : style.red(target.verdict)
            lines.append("target: \(clean(ProbeMetricsFamilies.label(target))) \(verdict) in \(TimeFormatting.duration(milliseconds: target.totalMs))"
                + (lookedAt.map { ", \(age($0))" } ?? ""))
        }
        if let lastError { lines.append("last error: \(clean(lastError))") }
        return lines.joined(separator: "\n") + "\n"
    }
}
