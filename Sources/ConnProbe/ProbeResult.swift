import ConnCore
import Foundation

/// One rung of the ladder: what was tried, how long it took, what came of it.
public struct ProbeRung: Sendable, Codable, Equatable {
    /// `dns`, `route`, `tcp`, `tls` or `http`.
    public var name: String
    public var ok: Bool
    /// Milliseconds, when the rung ran to an answer.
    public var ms: Double?
    public var detail: String
}

/// The interface the target's route leaves by.
public struct ProbeInterface: Sendable, Codable, Equatable {
    public var name: String
    public var kind: InterfaceKind
    /// Metered (cellular): avoid large transfers.
    public var expensive: Bool
    public var sourceAddress: String

    /// The interface in the shape every state reports it (no source address).
    public var summary: InterfaceSummary { InterfaceSummary(name: name, kind: kind, expensive: expensive) }
}

/// What `conn probe` found for one target.
public struct ProbeResult: Sendable, Codable, Equatable {
    public var target: String
    /// `server` (the configured back end's health resource), `url` or `hostPort`.
    public var kind: String
    public var url: String?
    public var host: String
    public var port: Int
    public var reachable: Bool
    /// `reachable`, or the first failing layer: nxdomain, noRoute, noCarrier, refused, timeout,
    /// tlsError, httpStatus, unexpectedBody, portal, redirected.
    public var verdict: String
    /// A sentence for a person.
    public var explanation: String
    public var address: String?
    public var interface: ProbeInterface?
    public var httpStatus: Int?
    /// Where the last redirect pointed (the `Location` resolved against the URL asked), when the
    /// answer was one: followed within the origin, a verdict off it.
    public var location: String?
    public var certificate: ProbeCertificate?
    /// The answer judged (the last one, after redirects within the origin); nil without one.
    public var response: ProbeResponse?
    public var rungs: [ProbeRung]
    public var totalMs: Double
    /// The first address the name resolved to (the literal itself for an address), tried first
    /// even when no connection was made: /probe's `probe_ip_protocol`. Not in the JSON.
    public var resolvedAddress: String? = nil

    private enum CodingKeys: String, CodingKey {
        case target, kind, url, host, port, reachable, verdict, explanation, address, interface, httpStatus, location, certificate, response
        case rungs, totalMs
    }

    public var failure: ReachabilityFailure? { ReachabilityFailure(rawValue: verdict) }
}

public struct ProbeCertificate: Sendable, Codable, Equatable {
    public var commonName: String?
    /// The whole subject: `CN=conn-test,O=Example`.
    public var subject: String?
    public var notValidAfter: Date
    /// False when --insecure skipped verification.
    public var verified: Bool
    /// The protocol the handshake agreed: `TLS 1.3`, `TLS 1.2` (nil: not known).
    public var tlsVersion: String?
}

/// The HTTP answer a probe judged, as the blackbox exporter describes it.
public struct ProbeResponse: Sendable, Codable, Equatable {
    /// `1.1` or `1.0`.
    public var httpVersion: String
    /// The `Content-Length` the server declared; nil when it declared none (chunked, or until close).
    public var contentLength: Int?
    /// How many bytes of body were read (at most 1 MiB is read).
    public var bodyBytes: Int
    /// From the request to the first byte of the answer; the rest of the HTTP rung is the body's transfer.
    public var firstByteMs: Double
    /// Whether the answer came over TLS.
    public var tls: Bool
    /// Redirects followed within the origin before this answer.
    public var redirects: Int
}
