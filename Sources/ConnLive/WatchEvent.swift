import ConnCommandKit
import ConnCore
import Foundation

/// One line of `conn watch`'s output (docs/json/watch-event.schema.json). Every event carries
/// the current state in the keys every command uses (`state`, `reason`, `failingTarget`,
/// `since`, `interface`, `ipv4`, `ipv6`); keys that do not apply are null.
public struct WatchEvent: Sendable, Equatable, Encodable, SchemaVersioned {
    public static let schemaVersion = 2

    public enum Kind: String, Sendable, Encodable {
        /// The state when watching began (not a change).
        case baseline
        case change
        /// The way out changed while the state stayed (another interface, a default route
        /// gained or lost): NWPathMonitor's path update.
        case path
        /// The live link to the back end changed (its ConnectionState).
        case connectionState
        /// The internet check found something other than it last did (its first verdict after
        /// `pending`, or a new state) while the state stayed.
        case internet
        /// A background outbox pass ran (--flush-outbox).
        case outbox
        /// The watch ended (signal, --until, --timeout).
        case stopped
    }

    public var type: Kind
    public var at: Date
    /// The state before a change.
    public var from: NetworkStatus?
    /// The state a change went to (or the baseline's).
    public var to: NetworkStatus? { state?.state }
    /// Whether the event says the server is online (a baseline, a change, a way out): what ends
    /// backoff and brings the link back. An `internet` event says only what the internet check
    /// found, whatever state it carries.
    public var saysServerOnline: Bool { type != .internet && to == .online }
    /// The state now; nil before the first look has finished.
    public var state: NetworkState?
    /// How long the state was not online, on recovery.
    public var downtimeMs: Double?
    public var connectionState: ConnectionState?
    /// What the internet check found (nil when the watch runs none).
    public var internet: InternetReading?
    /// The fuller description (with --details).
    public var details: String?
    /// What an outbox pass did (type `outbox`).
    public var outbox: WatchOutboxSummary?
    /// Why the watch stopped (type `stopped`): SIGINT, SIGTERM, timeout, interrupted.
    public var stopReason: String?
    /// The link's clock estimate unrounded, with its bound (ms), for text to say it as
    /// clock-offset does; not in the JSON, whose `connectionState` is seed 002's shape.
    public var linkClock: LinkClock?

    /// The live link's clock estimate: the offset unrounded and its error bound, in ms.
    public struct LinkClock: Sendable, Equatable {
        public var offsetMs: Double
        public var boundMs: Double
    }

    init(type: Kind, at: Date, from: NetworkStatus?, state: NetworkState, downtimeMs: Double?) {
        self.type = type
        self.at = at
        self.from = from
        self.state = state
        self.downtimeMs = downtimeMs
    }

    public init(type: Kind, at: Date, state: NetworkState?, connectionState: ConnectionState?, stopReason: String? = nil) {
        self.type = type
        self.at = at
        self.state = state
        self.connectionState = connectionState
        self.stopReason = stopReason
    }

    private enum CodingKeys: String, CodingKey {
        case type, at, from, downtimeMs, connectionState, internet, details, outbox, stopReason
    }

    public func encode(to encoder: any Encoder) throws {
        try NetworkState.encode(state, to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(at, forKey: .at)
        try container.encode(from, forKey: .from)  // Optionals: an explicit null when absent
        try container.encode(downtimeMs, forKey: .downtimeMs)
        try container.encode(connectionState, forKey: .connectionState)
        try container.encode(internet, forKey: .internet)
        try container.encode(details, forKey: .details)
        try container.encode(outbox, forKey: .outbox)
        try container.encode(stopReason, forKey: .stopReason)
    }

    /// The event as environment variables for --exec hooks.
    public var environment: [String: String] {
        var variables = ["CONN_EVENT_TYPE": type.rawValue, "CONN_EVENT_AT": JSONOutput.timestamp(at)]
        if let from { variables["CONN_EVENT_FROM"] = from.rawValue }
        if let state {
            variables["CONN_EVENT_TO"] = state.state.rawValue
            if let reason = state.reason { variables["CONN_EVENT_REASON"] = reason.rawValue }
            if let target = state.failingTarget { variables["CONN_EVENT_FAILING_TARGET"] = target }
            if let since = state.since { variables["CONN_EVENT_SINCE"] = JSONOutput.timestamp(since) }
            if let interface = state.interface {
                variables["CONN_EVENT_INTERFACE"] = interface.name
                variables["CONN_EVENT_INTERFACE_KIND"] = interface.kind.rawValue
            }
        }
        if let downtimeMs { variables["CONN_EVENT_DOWNTIME_MS"] = String(Int(downtimeMs.rounded())) }
        if let connectionState {
            variables["CONN_EVENT_CONNECTION"] = connectionState.isConnected ? "connected" : "disconnected"
            if let offset = connectionState.backEndTimeOffsetMs { variables["CONN_EVENT_OFFSET_MS"] = String(offset) }
        }
        if let internet { variables["CONN_EVENT_INTERNET"] = internet.stateName }
        return variables
    }
}

extension WatchEvent: TextRenderable {
    public func renderText(style: TextStyle) -> String {
        let time = style.dim(style.moment(at, milliseconds: true))
        let clean = { (text: String) in TerminalSanitizer.sanitize(text, keepNewlines: false) }
        var context: [String] = []
        if let reason = state?.reason { context.append(reason.rawValue) }
        if let target = state?.failingTarget { context.append(clean(target)) }
        if let interface = state?.interface { context.append("via \(interface.text)") }
        let suffix = context.isEmpty ? "" : "  (\(context.joined(separator: ", ")))"
        var line: String
        switch type {
        case .baseline:
            line = "\(time)  \(colored(state?.state, style: style))\(suffix)"
        case .change:
            line = "\(time)  \(from?.rawValue ?? "?") → \(colored(state?.state, style: style))\(suffix)"
            if state?.state == .online, let downtimeMs { line += "  back after \(TimeFormatting.duration(seconds: downtimeMs / 1000))" }
        case .path:
            line = "\(time)  " + pathSummary(style: style)
        case .connectionState:
            line = "\(time)  link: \(connectionState.map { Self.linkText($0, clock: linkClock) } ?? "off")"
        case .internet:
            line = "\(time)  internet: \(clean(internet?.text ?? "?"))"
        case .outbox:
            let summary = outbox.map { clean($0.text) + ($0.error.map { "  (\(clean($0)))" } ?? "") } ?? ""
            line = "\(time)  outbox: \(summary)"
        case .stopped:
            line = "\(time)  stopped\(stopReason.map { " (\($0))" } ?? "")"
        }
        if let details { line += "\n  " + details }
        return line + "\n"
    }

    /// The link's state in words; with the bound of its clock offset, the offset as clock-offset
    /// says it ("3.0 ms ±4.1 ms, in step: within the bound"), one estimate, one wording.
    public static func linkText(_ state: ConnectionState, clock estimate: LinkClock?) -> String {
        // The estimate the state's whole milliseconds came from, unrounded.
        guard let estimate, let offset = state.backEndTimeOffsetMs, Int(estimate.offsetMs.rounded()) == offset else { return "\(state)" }
        return state.described(clock: OffsetWording.value(offsetMs: estimate.offsetMs, uncertaintyMs: estimate.boundMs) + ", "
                                      + OffsetWording.direction(offsetMs: estimate.offsetMs, uncertaintyMs: estimate.boundMs))
    }

    /// What a path event says, in watch's stream and in the REPL's announcement alike.
    public func pathSummary(style: TextStyle) -> String {
        WatchEvent.pathSummary(state, style: style)
    }

    /// "path: online via wlan0 (wifi)  (IPv4 yes, IPv6 no)": a path event's words for `state`,
    /// the same in watch, the REPL and the agent's log.
    public static func pathSummary(_ state: NetworkState?, style: TextStyle) -> String {
        let word = state.map { $0.state == .online ? style.green($0.state.rawValue) : style.red($0.state.rawValue) } ?? "?"
        var line = "path: \(word) via \(state?.interface?.text ?? "no interface")"
        let families = [("IPv4", state?.ipv4), ("IPv6", state?.ipv6)].compactMap { name, works in works.map { "\(name) \($0 ? "yes" : "no")" } }
        if !families.isEmpty { line += "  (\(families.joined(separator: ", ")))" }
        return line
    }

    private func colored(_ state: NetworkStatus?, style: TextStyle) -> String {
        guard let state else { return "?" }
        return state == .online ? style.green(state.rawValue) : style.red(state.rawValue)
    }
}
