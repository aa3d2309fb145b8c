/// Why the state is not online: the one vocabulary of `reason` in every JSON form.
///
/// - The device is offline: `noInterface`, `noCarrier`, `noAddress`, `noRoute`.
/// - A target failed at a layer (its probe verdict): `nxdomain`, `noRoute`, `refused`,
///   `timeout`, `tlsError`, `httpStatus`, `unexpectedBody`, `portal`, `redirected`, and through a
///   proxy `proxyUnreachable`, `proxyAuthRequired`, `proxyRefused`, and `unreachable` (the
///   proxy could not reach the target and did not say why).
/// - The internet check found: `portal`, `limited` (a route, no answer), `dnsBroken`.
public enum StateReason: String, Sendable, Codable, CaseIterable {
    case noInterface, noCarrier, noAddress, noRoute
    case nxdomain, refused, timeout, tlsError, httpStatus, unexpectedBody, portal, redirected
    case proxyUnreachable, proxyAuthRequired, proxyRefused, unreachable
    case limited, dnsBroken

    public init(_ offline: OfflineReason) {
        self.init(rawValue: offline.rawValue)!
    }

    public init(_ failure: ReachabilityFailure) {
        self.init(rawValue: failure.rawValue)!
    }

    /// What the internet check found, when that is the reason (nil for online).
    public init?(_ connectivity: DeviceConnectivity) {
        switch connectivity {
        case .online: return nil
        case .offline(let reason): self.init(reason)
        case .limited: self = .limited
        case .portal: self = .portal
        case .dnsBroken: self = .dnsBroken
        }
    }
}
