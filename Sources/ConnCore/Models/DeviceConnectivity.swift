/// Why a device is offline: the first missing piece, from the bottom up.
public enum OfflineReason: String, Sendable, Codable, CaseIterable {
    case noInterface, noCarrier, noAddress, noRoute
}

/// What the device can reach in general, independent of any one server.
public enum DeviceConnectivity: Sendable, Equatable, Codable {
    /// The internet answers as expected.
    case online
    /// Nothing beyond this host can be reached.
    case offline(OfflineReason)
    /// A route exists but the internet does not answer.
    case limited
    /// A captive portal answers in place of the internet; `url` is where it sends the user.
    case portal(url: String?)
    /// IP literals answer, names do not resolve.
    case dnsBroken

    public var name: String {
        switch self {
        case .online: "online"
        case .offline: "offline"
        case .limited: "limited"
        case .portal: "portal"
        case .dnsBroken: "dnsBroken"
        }
    }

    private enum CodingKeys: String, CodingKey { case state, reason, portalURL }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .state) {
        case "online": self = .online
        case "offline": self = .offline(try container.decode(OfflineReason.self, forKey: .reason))
        case "limited": self = .limited
        case "portal": self = .portal(url: try container.decodeIfPresent(String.self, forKey: .portalURL))
        case "dnsBroken": self = .dnsBroken
        case let other:
            throw DecodingError.dataCorruptedError(
                forKey: .state, in: container, debugDescription: "unknown connectivity state \"\(other)\"")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .state)
        // Every key in every state, null where it does not apply.
        var reason: OfflineReason?
        var portalURL: String?
        switch self {
        case .offline(let offline): reason = offline
        case .portal(let url): portalURL = url
        default: break
        }
        try container.encode(reason, forKey: .reason)
        try container.encode(portalURL, forKey: .portalURL)
    }
}
