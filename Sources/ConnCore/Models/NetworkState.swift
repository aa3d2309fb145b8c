import Foundation

/// The connection's state in the one shape every command reports it in — `probe`, `watch`, the
/// REPL's `status`, the agent: which state, why, which target failed, since when, over which
/// interface, and whether IPv4 and IPv6 answered. Scripts read the same keys everywhere.
///
/// JSON: every key is present; `null` means not known (or, for `ipv4`/`ipv6`, not tried).
public struct NetworkState: Sendable, Equatable, Codable {
    public var state: NetworkStatus
    /// The cause when not online: an offline reason, the failing target's verdict, or what the
    /// internet check found.
    public var reason: StateReason?
    /// The first target that did not answer (its text as given, or the server's health URL).
    public var failingTarget: String?
    /// When the current state began; nil for a single look (`probe`), which sees one moment.
    public var since: Date?
    public var interface: InterfaceSummary?
    /// Whether something answered over IPv4 (IPv6): nil when nothing was tried that way.
    public var ipv4: Bool?
    public var ipv6: Bool?

    public init(state: NetworkStatus, reason: StateReason? = nil, failingTarget: String? = nil, since: Date? = nil,
                interface: InterfaceSummary? = nil, ipv4: Bool? = nil, ipv6: Bool? = nil) {
        self.state = state
        self.reason = reason
        self.failingTarget = failingTarget
        self.since = since
        self.interface = interface
        self.ipv4 = ipv4
        self.ipv6 = ipv6
    }

    /// The same state seen again: what changes from look to look (the time, which interface
    /// answered first) is not a change of state.
    public func isSameState(as other: NetworkState) -> Bool {
        state == other.state && reason == other.reason && failingTarget == other.failingTarget
    }

    private enum CodingKeys: String, CodingKey {
        case state, reason, failingTarget, since, interface, ipv4, ipv6
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(state, forKey: .state)
        try container.encode(reason, forKey: .reason)  // Optional: an explicit null when absent
        try container.encode(failingTarget, forKey: .failingTarget)
        try container.encode(since, forKey: .since)
        try container.encode(interface, forKey: .interface)
        try container.encode(ipv4, forKey: .ipv4)
        try container.encode(ipv6, forKey: .ipv6)
    }

    /// Writes the keys of `state` beside a payload's own, or all of them as null when no look
    /// has finished yet (so the keys are there either way).
    public static func encode(_ state: NetworkState?, to encoder: any Encoder) throws {
        if let state { return try state.encode(to: encoder) }
        var container = encoder.container(keyedBy: CodingKeys.self)
        for key in [CodingKeys.state, .reason, .failingTarget, .since, .interface, .ipv4, .ipv6] {
            try container.encodeNil(forKey: key)
        }
    }

    /// `online`, or `serverUnreachable (refused: http://…/health)`, for text output.
    public var summary: String {
        state.rawValue + (cause.map { " (\($0))" } ?? "")
    }

    /// The one-line banner (`NetworkStatus.banner`), which says "Your network works" only when
    /// something on the way answered — the server refused, or answered wrongly; a proxy said no —
    /// never on a silence (a timeout, a name that did not resolve, no route, an internet check
    /// that did not answer). nil while online.
    public var banner: String? {
        guard state == .serverUnreachable else { return state.banner }
        let answered: Set<StateReason> = [.refused, .tlsError, .httpStatus, .unexpectedBody, .redirected, .proxyAuthRequired, .proxyRefused]
        if let reason, answered.contains(reason) { return state.banner }
        return "Can't reach the server; conn keeps trying."
    }

    /// `refused: http://…/health` (the reason, the failing target), sanitised; nil while online.
    public var cause: String? {
        let parts = [reason?.rawValue, failingTarget.map { TerminalSanitizer.sanitize($0, keepNewlines: false) }].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: ": ")
    }
}

/// The interface a state was seen through: `{"name":"wlan0","kind":"wifi","expensive":false}`.
public struct InterfaceSummary: Sendable, Equatable, Codable {
    public var name: String
    public var kind: InterfaceKind
    /// Metered (cellular): avoid large transfers.
    public var expensive: Bool

    public init(name: String, kind: InterfaceKind, expensive: Bool) {
        self.name = name
        self.kind = kind
        self.expensive = expensive
    }

    /// `wlan0 (wifi)` or `wwan0 (wwan, metered)`, sanitised for a terminal.
    public var text: String {
        TerminalSanitizer.sanitize(name, keepNewlines: false) + " (\(kind.rawValue)\(expensive ? ", metered" : ""))"
    }
}
