import ConnCommandKit
import ConnCore
import Foundation

/// One line of `conn watch`'s output. JSON keys are part of the output contract.
public struct WatchEvent: Sendable, Equatable, Encodable {
    public enum Kind: String, Sendable, Encodable {
        /// The state when watching began (not a change).
        case baseline
        case change
        /// The live link to the back end changed (seed 002's ConnectionState).
        case connectionState
        /// A background outbox pass ran (--flush-outbox).
        case outbox
        /// The watch ended (signal, --until, --timeout).
        case stopped
    }

    public var type: Kind
    public var at: Date
    public var from: NetworkStatus?
    public var to: NetworkStatus?
    public var reason: String?
    public var interface: String?
    /// How long the state was not online, on recovery.
    public var downtimeMs: Double?
    public var connectionState: ConnectionState?
    /// The fuller description (with --details).
    public var details: String?
    /// What an outbox pass did (type `outbox`).
    public var outbox: WatchOutboxSummary?

    init(type: Kind, at: Date, from: NetworkStatus?, observation: WatchObservation, downtimeMs: Double?) {
        self.type = type
        self.at = at
        self.from = from
        self.to = observation.state
        self.reason = observation.reason
        self.interface = observation.interface
        self.downtimeMs = downtimeMs
    }

    init(type: Kind, at: Date, state: NetworkStatus?, connectionState: ConnectionState?, reason: String? = nil) {
        self.type = type
        self.at = at
        self.to = state
        self.connectionState = connectionState
        self.reason = reason
    }

    /// The event as environment variables for --exec hooks.
    var environment: [String: String] {
        var variables = ["CONN_EVENT_TYPE": type.rawValue, "CONN_EVENT_AT": JSONOutput.timestamp(at)]
        if let from { variables["CONN_EVENT_FROM"] = from.rawValue }
        if let to { variables["CONN_EVENT_TO"] = to.rawValue }
        if let reason { variables["CONN_EVENT_REASON"] = reason }
        if let interface { variables["CONN_EVENT_INTERFACE"] = interface }
        if let downtimeMs { variables["CONN_EVENT_DOWNTIME_MS"] = String(Int(downtimeMs.rounded())) }
        if let connectionState {
            variables["CONN_EVENT_CONNECTION"] = connectionState.isConnected ? "connected" : "disconnected"
            if let offset = connectionState.backEndTimeOffsetMS { variables["CONN_EVENT_OFFSET_MS"] = String(offset) }
        }
        return variables
    }
}

extension WatchEvent: TextRenderable {
    public func renderText(style: TextStyle) -> String {
        let time = style.dim(JSONOutput.timestamp(at))
        let clean = { (text: String) in TerminalSanitizer.sanitize(text, keepNewlines: false) }
        var context: [String] = []
        if let reason { context.append(clean(reason)) }
        if let interface { context.append("via \(clean(interface))") }
        let suffix = context.isEmpty ? "" : "  (\(context.joined(separator: ", ")))"
        var line: String
        switch type {
        case .baseline:
            line = "\(time)  \(colored(to, style: style))\(suffix)"
        case .change:
            line = "\(time)  \(from?.rawValue ?? "?") → \(colored(to, style: style))\(suffix)"
            if to == .online, let downtimeMs { line += "  back after \(TimeFormatting.age(seconds: downtimeMs / 1000))" }
        case .connectionState:
            line = "\(time)  link: \(connectionState.map { "\($0)" } ?? "off")"
        case .outbox:
            let summary = outbox.map { clean($0.text) + ($0.error.map { "  (\(clean($0)))" } ?? "") } ?? ""
            line = "\(time)  outbox: \(summary)"
        case .stopped:
            line = "\(time)  stopped\(reason.map { " (\($0))" } ?? "")"
        }
        if let details { line += "\n  " + details }
        return line + "\n"
    }

    private func colored(_ state: NetworkStatus?, style: TextStyle) -> String {
        guard let state else { return "?" }
        return state == .online ? style.green(state.rawValue) : style.red(state.rawValue)
    }
}
