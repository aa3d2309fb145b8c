import ConnCommandKit
import ConnCore
import ConnLive
import Foundation

/// One line of `conn agent`'s log (docs/json/agent-event.schema.json with --json): what it
/// started with, each change of the state and the link, each delivery pass and inbox sync that
/// did something, and its stop. Every line carries the current state, as watch's do.
struct AgentEvent: Encodable, TextRenderable, Sendable, Equatable {
    enum Kind: String, Encodable, Sendable {
        case started, reloaded, reloadFailed, baseline, change, path, connectionState, outbox, sync, resources, chrony, stopped
    }

    var type: Kind
    var at = Date()
    var from: NetworkStatus?
    var state: NetworkState?
    var downtimeMs: Double?
    var connectionState: ConnectionState?
    var outbox: WatchOutboxSummary?
    var sync: AgentStatus.Sync?
    /// Why it stopped (SIGTERM, SIGINT), what it started with, why a re-read failed, or the
    /// chrony feed's news.
    var detail: String?
    /// Under journald (JOURNAL_STREAM), which stamps every line itself: text lines carry no time.
    var timestamped = true

    private enum CodingKeys: String, CodingKey {
        case type, at, from, downtimeMs, connectionState, outbox, sync, detail
    }

    func encode(to encoder: any Encoder) throws {
        try NetworkState.encode(state, to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(at, forKey: .at)
        try container.encode(from, forKey: .from)
        try container.encode(downtimeMs, forKey: .downtimeMs)
        try container.encode(connectionState, forKey: .connectionState)
        try container.encode(outbox, forKey: .outbox)
        try container.encode(sync, forKey: .sync)
        try container.encode(detail, forKey: .detail)
    }

    func renderText(style: TextStyle) -> String {
        let clean = { (text: String) in TerminalSanitizer.sanitize(text, keepNewlines: false) }
        let text: String
        switch type {
        case .started: text = "started: \(clean(detail ?? ""))"
        case .reloaded: text = "configuration re-read: \(clean(detail ?? ""))"
        case .reloadFailed: text = "configuration not re-read, the one in effect is kept: \(clean(detail ?? ""))"
        case .baseline: text = state.map { $0.summary } ?? "?"
        case .change:
            text = "\(from?.rawValue ?? "?") → \(state?.summary ?? "?")"
                + (state?.state == .online ? (downtimeMs.map { "  back after \(TimeFormatting.duration(seconds: $0 / 1000))" } ?? "") : "")
        case .path: text = WatchEvent.pathSummary(state, style: style)
        case .connectionState: text = "link: " + (connectionState.map { "\($0)" } ?? "off")
        case .outbox: text = "outbox: " + (outbox?.line ?? "")
        case .sync: text = "inbox: " + (sync.map { $0.ok ? $0.text : "sync " + $0.text } ?? "?")
        case .resources: text = "resources: \(clean(detail ?? ""))"
        case .chrony: text = "chrony: \(clean(detail ?? ""))"
        case .stopped: text = "stopped" + (detail.map { " (\($0))" } ?? "")
        }
        return (timestamped ? style.dim(style.moment(at, milliseconds: true)) + "  " : "") + text + "\n"
    }
}
