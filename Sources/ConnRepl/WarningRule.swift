/// Seed 001's rule for the offline warning, as a pure state machine.
///
/// The warning shows when there is no connection to the server AND the user has not
/// acknowledged it. One acknowledgement serves everywhere (the REPL has one warning, shown as the
/// banner and in the prompt). The acknowledgement resets when the connection returns and on a
/// manual refresh, so the next loss of connection (or a refresh while still offline) warns again.
public struct WarningRule: Sendable, Equatable {
    public enum Event: Sendable, Equatable {
        /// A new verdict on the connection to the server (true: reachable).
        case connection(Bool)
        /// The user acknowledged the warning (`ack`).
        case acknowledge
        /// The user asked for a manual refresh (`refresh`).
        case refresh
    }

    /// nil until the first verdict: no warning before anything is known.
    public private(set) var hasConnection: Bool?
    public private(set) var acknowledged = false

    public init() {}

    public var showsWarning: Bool { hasConnection == false && !acknowledged }

    /// Applies `event`; returns true when the warning has just become visible (print the banner).
    @discardableResult
    public mutating func apply(_ event: Event) -> Bool {
        let before = showsWarning
        switch event {
        case .connection(let connected):
            hasConnection = connected
            if connected { acknowledged = false }
        case .acknowledge:
            acknowledged = true
        case .refresh:
            acknowledged = false
        }
        return showsWarning && !before
    }
}
