import ConnCommandKit
import ConnCore
import ConnLive
import Foundation

/// What the REPL knows about the connection: the monitor's verdict and the live link.
public struct ReplStatus: Sendable, Equatable {
    /// The monitor's state; nil until the first look has finished.
    public var network: NetworkState?
    /// The link to the back end (seed 002); nil when there is no server or the link is off.
    public var link: ConnectionState?
    /// Seed 002's isConnectionEnabled: `connect` / `disconnect`.
    public var linkEnabled: Bool
    /// Whether there is a server to link to at all.
    public var linkAvailable: Bool
    public var checkedAt: Date?
    /// The link's latest clock estimate, unrounded, with its bound.
    public var linkClock: WatchEvent.LinkClock?

    public var state: NetworkStatus? { network?.state }

    /// Seed 001's "has network connection": really, a connection to the application server.
    public var hasConnection: Bool? { state.map { $0 == .online } }

    /// The word in the prompt.
    var promptWord: String {
        guard let state else { return "…" }
        switch state {
        case .online: return "online"
        case .offline: return "offline"
        case .serverUnreachable: return "unreachable"
        case .portal: return "portal"
        }
    }

    /// `status`: the "tap the bar" description of seed 000.
    func describe(style: TextStyle) -> String {
        var lines: [String] = []
        if let network {
            let state = network.state
            var head = "state: " + (state == .online ? style.green(state.rawValue) : style.red(state.rawValue))
            if let cause = network.cause { head += " (\(cause))" }
            if let interface = network.interface { head += " via \(interface.text)" }
            if let since = network.since { head += style.dim(" since \(TimeFormatting.ago(seconds: -since.timeIntervalSinceNow))") }
            lines.append(head)
            lines.append("  " + state.details)
        } else {
            lines.append("state: not known yet (the first check is running)")
        }
        if !linkAvailable {
            lines.append("link: none (no server configured)")
        } else if !linkEnabled {
            lines.append("link: off (`connect` turns it on)")
        } else if let link {
            lines.append("link: \(WatchEvent.linkText(link, clock: linkClock))")
        } else {
            lines.append("link: connecting (no answer yet)")
        }
        if let checkedAt { lines.append(style.dim("checked \(TimeFormatting.ago(seconds: -checkedAt.timeIntervalSinceNow))")) }
        return lines.joined(separator: "\n")
    }
}
