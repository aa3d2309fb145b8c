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
        let bootstrap = egress.applied(to: ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
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

    /// Runs a TLS handshake on a connected channel and reads the peer's certificate.
    static func handshake(on channel: any Channel, serverName: String?, insecure: Bool, timeout: Duration) async -> TLSResult {
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let context = try NIOSSLContext(configuration: ClientTLS.configuration(insecure: insecure))
            let completed = channel.eventLoop.makePromise(of: Void.self)
            // Completed on every way out (see ChannelHTTPExchange: a pending promise is a crash
            // in SwiftNIO's debug builds).
            defer { completed.fail(ChannelError.ioOnClosedChannel) }
            try await channel.eventLoop.submit {
                let handler = try NIOSSLClientHandler(context: context, serverHostname: serverName)
                try channel.pipeline.syncOperations.addHandlers([handler, HandshakeWaiter(completed)])
            }.get()
            let deadline = channel.eventLoop.scheduleTask(in: .nanoseconds(timeout.nanoseconds)) {
                completed.fail(ChannelError.connectTimeout(.nanoseconds(timeout.nanoseconds)))
            }
            defer { deadline.cancel() }
            try await completed.futureResult.get()
            let elapsed = start.duration(to: clock.now)
            let certificate = try? await channel.nioSSL_peerCertificate().get()
            let version = try? await channel.nioSSL_tlsVersion().get()
            return .established(elapsed, certificate.map { var summary = summary($0); summary.tlsVersion = version.flatMap(Self.name); return summary })
        } catch ChannelError.connectTimeout {
            return .timeout
        } catch {
            return .failed(describe(error), start.duration(to: clock.now))
        }
    }

    /// A protocol version as people (and the blackbox exporter) write it.
    static func name(_ version: TLSVersion) -> String {
        switch version {
        case .tlsv1: "TLS 1.0"
        case .tlsv11: "TLS 1.1"
        case .tlsv12: "TLS 1.2"
        case .tlsv13: "TLS 1.3"
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

    static func describe(_ error: any Error) -> String {
        let text = String(describing: error)
        if text.contains("CERTIFICATE_VERIFY_FAILED") || text.localizedCaseInsensitiveContains("certificate verify failed") {
            return "certificate verification failed (self-signed, expired, or for another name)"
        }
        if let validation = error as? NIOSSLExtraError, String(describing: validation).contains("hostname") {
            return "the certificate is not valid for this host name"
        }
        return text
    }
}

/// Completes a promise when the TLS handshake finishes or fails.
private final class HandshakeWaiter: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = NIOAny
    private let promise: EventLoopPromise<Void>

    init(_ promise: EventLoopPromise<Void>) { self.promise = promise }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? TLSUserEvent, case .handshakeCompleted = event { promise.succeed() }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) { promise.fail(error) }

    func channelInactive(context: ChannelHandlerContext) {
        promise.fail(ChannelError.eof)
        context.fireChannelInactive()
    }
}
