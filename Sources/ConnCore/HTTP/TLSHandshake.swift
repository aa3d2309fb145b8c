import NIOCore
import NIOSSL
import NIOTLS

/// A TLS handshake on a connected channel, timed on its own, with what the peer showed: the
/// probe's TLS rung, TLS to an https:// proxy, and the target's TLS nested inside that one.
/// The certificate is read from this handshake's own handler: the channel's first TLS handler is
/// the proxy's when the target's runs inside a tunnel.
public enum TLSHandshake {
    public enum Outcome: Sendable {
        case established(Duration, certificate: NIOSSLCertificate?, version: TLSVersion?)
        case failed(String, Duration)
        case timeout
    }

    public static func run(on channel: any Channel, configuration: TLSConfiguration, serverName: String?, timeout: Duration) async -> Outcome {
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let context = try NIOSSLContext(configuration: configuration)
            let completed = channel.eventLoop.makePromise(of: (NIOSSLCertificate?, TLSVersion?).self)
            // Completed on every way out (a pending promise is a crash in SwiftNIO's debug builds).
            defer { completed.fail(ChannelError.ioOnClosedChannel) }
            try await channel.eventLoop.submit {
                let handler = try NIOSSLClientHandler(context: context, serverHostname: serverName)
                try channel.pipeline.syncOperations.addHandlers([handler, HandshakeWaiter(completed, handler: handler)])
            }.get()
            let deadline = channel.eventLoop.scheduleTask(in: .nanoseconds(timeout.nanoseconds)) {
                completed.fail(ChannelError.connectTimeout(.nanoseconds(timeout.nanoseconds)))
            }
            defer { deadline.cancel() }
            let (certificate, version) = try await completed.futureResult.get()
            return .established(start.duration(to: clock.now), certificate: certificate, version: version)
        } catch ChannelError.connectTimeout {
            return .timeout
        } catch {
            return .failed(describe(error), start.duration(to: clock.now))
        }
    }

    /// A handshake's failure as people read it.
    public static func describe(_ error: any Error) -> String {
        let text = String(describing: error)
        if text.contains("CERTIFICATE_VERIFY_FAILED") || text.localizedCaseInsensitiveContains("certificate verify failed") {
            return "certificate verification failed (self-signed, expired, or for another name)"
        }
        if text.contains("failedToValidateHostname") || (error as? NIOSSLExtraError).map({ String(describing: $0).contains("hostname") }) == true {
            return "the certificate is not valid for this host name"
        }
        if case ChannelError.eof = error { return "the peer closed the connection during the handshake" }
        return text
    }

    /// A protocol version as people (and the blackbox exporter) write it.
    public static func name(_ version: TLSVersion) -> String {
        switch version {
        case .tlsv1: "TLS 1.0"
        case .tlsv11: "TLS 1.1"
        case .tlsv12: "TLS 1.2"
        case .tlsv13: "TLS 1.3"
        }
    }
}

/// Completes a promise with the peer's certificate and the version when its handler's handshake
/// finishes, or with the error when it fails. It sits right after that handler, so an inner
/// handshake's event (TLS inside a tunnel) never reaches an outer one's waiter.
private final class HandshakeWaiter: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = NIOAny
    private let promise: EventLoopPromise<(NIOSSLCertificate?, TLSVersion?)>
    private let handler: NIOSSLHandler
    private var done = false

    init(_ promise: EventLoopPromise<(NIOSSLCertificate?, TLSVersion?)>, handler: NIOSSLHandler) {
        self.promise = promise
        self.handler = handler
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if !done, let event = event as? TLSUserEvent, case .handshakeCompleted = event {
            done = true
            promise.succeed((handler.peerCertificate, handler.tlsVersion))
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if !done { done = true; promise.fail(error) }
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if !done { done = true; promise.fail(ChannelError.eof) }
        context.fireChannelInactive()
    }
}
