/// The status shown to a person (seed 000): three states, each with a one-line banner and a
/// longer description for when the user asks for details.
public enum NetworkStatus: String, Sendable, Codable, CaseIterable {
    case online
    /// No network at all.
    case offline
    /// The network works, but the app's own server cannot be reached ("can't call home").
    case serverUnreachable

    /// The one-line banner; nil while online (no banner is shown).
    public var banner: String? {
        switch self {
        case .online: nil
        case .offline: "You are offline. Messages will be sent when the connection returns."
        case .serverUnreachable: "Can't reach the server. Your network works; conn keeps trying."
        }
    }

    /// The fuller description shown on request.
    public var details: String {
        switch self {
        case .online:
            "Connected: the server answers."
        case .offline:
            "This device has no working network connection: no interface is up, it has no address, "
                + "or there is no route out. Check Wi-Fi or the cable. Anything you send is kept in "
                + "the outbox and delivered when the connection returns."
        case .serverUnreachable:
            "The network is up, but the server does not answer. It may be down, blocked by a "
                + "firewall or a captive portal, or its name may not resolve. Anything you send is "
                + "kept in the outbox and delivered when the server answers again."
        }
    }

    /// Derives what to show from what the device can reach and whether the server answered.
    public init(connectivity: DeviceConnectivity, serverReachable: Bool) {
        if serverReachable {
            self = .online
        } else if case .offline = connectivity {
            self = .offline
        } else {
            self = .serverUnreachable
        }
    }
}
