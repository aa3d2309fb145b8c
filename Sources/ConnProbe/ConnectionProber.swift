import ConnCore
import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS
import X509

/// The TCP and TLS rungs, on one SwiftNIO channel to an already resolved address, each timed on
/// its own (the HTTP client's pool would hide which one was slow or failed).
enum ConnectionProber {
    struct Certificate: Sendable, Equatable, Codable {
        var commonName: String?
        /// The whole subject, RFC 4514 style: `CN=conn-test,O=Example`.
        var subject: String?
        var notValidAfter: Date
        /// `TLS 1.3`, as the blackbox exporter writes it.
        var tlsVersion: String?
    }

    enum TCPResult {
        case connected(any Channel, Duration)
        case refused(Duration)
        case noRoute(Duration)
        case timeout
        case failed(String)
    }

    enum TLSResult {
        case established(Duration, Certificate?)
        case failed(String, Duration)
        case timeout
    }

    static func connect(to address: ResolvedAddress, timeout: Duration, egress: Egress = .any) async -> TCPResult {
        guard let socketAddress = address.socketAddress else { return .failed("bad address \(address.ip)") }
        let clock = ContinuousClock()
        let start = clock.now
        // `any()`: the loop this task runs on, if it runs on one (EventLoopTaskExecutor), as a
        // plain-http target's channel does (ChannelHTTPExchange.connectAndGet).
        let bootstrap = egress.applied(to: ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton.any())
            .connectTimeout(.nanoseconds(timeout.nanoseconds)))
        do {
            let channel = try await bootstrap.connect(to: socketAddress).get()
            return .connected(channel, start.duration(to: clock.now))
        } catch {
            return tcpFailure(error, after: start.duration(to: clock.now))
        }
    }

    /// Why a connect failed, as the TCP rung reports it.
    static func tcpFailure(_ error: any Error, after elapsed: Duration) -> TCPResult {
        if case ChannelError.connectTimeout = error { return .timeout }
        switch ConnectFailure(error) {  // the same errno reading as the HTTP transport's
        case .refused: return .refused(elapsed)
        case .noRoute: return .noRoute(elapsed)
        case .nameNotResolved, nil: return .failed(String(describing: error))
        }
    }

    /// Runs a TLS handshake on a connected channel (or inside a proxy's tunnel on it) and reads
    /// the peer's certificate.
    static func handshake(on channel: any Channel, serverName: String?, trust: ServerTrust, timeout: Duration) async -> TLSResult {
        let configuration: TLSConfiguration
        do { configuration = try ClientTLS.configuration(trust) } catch { return .failed(TLSHandshake.describe(error), .zero) }
        switch await TLSHandshake.run(on: channel, configuration: configuration, serverName: serverName, timeout: timeout) {
        case .established(let elapsed, let certificate, let version):
            return .established(elapsed, certificate.map { var summary = summary($0); summary.tlsVersion = version.map(TLSHandshake.name); return summary })
        case .failed(let why, let elapsed):
            return .failed(why, elapsed)
        case .timeout:
            return .timeout
        }
    }

    static func summary(_ certificate: NIOSSLCertificate) -> Certificate {
        let notValidAfter = Date(timeIntervalSince1970: Double(certificate.notValidAfter))
        guard let der = try? certificate.toDERBytes(), let parsed = try? X509.Certificate(derEncoded: der) else {
            return Certificate(commonName: nil, subject: nil, notValidAfter: notValidAfter)
        }
        let commonName = parsed.subject.flatMap { $0 }.first { $0.type == .RDNAttributeType.commonName }.map { String(describing: $0.value) }
        return Certificate(commonName: commonName, subject: String(describing: parsed.subject), notValidAfter: notValidAfter)
    }
}
