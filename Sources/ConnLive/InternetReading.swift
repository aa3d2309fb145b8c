import ConnProbe

/// What a monitor knows of the internet check: its verdict, or that the first one has not
/// answered yet (the targets' verdict never waits for it: `ConnectivityCheck.run(onInternetSettled:)`).
/// A recheck that is still out leaves the last verdict standing.
///
/// JSON: the verdict's keys (`state`, `reason`, `portalURL`, `explanation`, `ipv4`, `ipv6`), or
/// the same keys with `state` `pending`.
public enum InternetReading: Sendable, Equatable, Encodable {
    case pending
    case settled(InternetVerdict)

    /// The reading a look gives: pending while its check is out, the verdict it took, nil when
    /// the monitor runs no internet check (or the look took nothing new).
    init?(_ snapshot: ConnectivityCheck.Snapshot) {
        if snapshot.internetPending {
            self = .pending
        } else if let verdict = snapshot.internet {
            self = .settled(verdict)
        } else {
            return nil
        }
    }

    /// The state's name: `pending`, or the verdict's (`online`, `limited`…).
    public var stateName: String {
        switch self {
        case .pending: "pending"
        case .settled(let verdict): verdict.state.name
        }
    }

    /// What the reading says, for text: "limited: a route exists, but the internet does not answer".
    public var text: String {
        switch self {
        case .pending: "pending: the internet check has not answered yet"
        case .settled(let verdict): "\(verdict.state.name): \(verdict.explanation)"
        }
    }

    /// Whether `other` tells something new: another state (a portal's other address counts), or a
    /// verdict where there was only `pending`. A pending recheck after a verdict is not news.
    func isNews(after other: InternetReading?) -> Bool {
        switch (other, self) {
        case (nil, _): true
        case (_, .pending): false
        case (.pending, .settled): true
        case (.settled(let old), .settled(let new)): old.state != new.state
        }
    }

    private enum CodingKeys: String, CodingKey { case state, reason, portalURL, explanation, ipv4, ipv6 }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .settled(let verdict):
            try verdict.encode(to: encoder)
        case .pending:
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode("pending", forKey: .state)
            for key in [CodingKeys.reason, .portalURL, .ipv4, .ipv6] { try container.encodeNil(forKey: key) }
            try container.encode("the internet check has not answered yet", forKey: .explanation)
        }
    }
}
