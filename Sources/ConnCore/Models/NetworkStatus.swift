/// The state of the connection as conn reports and shows it (seed 000's three, plus a captive
/// portal): `conn watch`'s events, the REPL's prompt and banner. Each has a one-line banner and a
/// longer description for when the user asks for details.
public enum NetworkStatus: String, Sendable, Codable, CaseIterable {
    case online
    /// No network at all (no interface, no carrier, no address, no route).
    case offline
    /// The network works, but the app's own server (or a target) cannot be reached ("can't call home").
    case serverUnreachable
    /// A captive portal answers in place of the internet.
    case portal

    /// The one-line banner; nil while online (no banner is shown).
    public var banner: String? {
        switch self {
        case .online: nil
        case .offline: "You are offline. Messages will be sent when the connection returns."
        case .serverUnreachable: "Can't reach the server. Your network works; conn keeps trying."
        case .portal: "A captive portal is in the way: sign in to this network to get online."
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
        case .portal:
            "The network answers, but with a sign-in page instead of the internet (hotels, trains, "
                + "airports). Open a browser to sign in; until then the server cannot be reached."
        }
    }
}
