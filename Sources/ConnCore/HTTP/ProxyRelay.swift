import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization

/// TLS to an https:// proxy for conn's HTTP client, which speaks plain HTTP to its proxies: a
/// listener on 127.0.0.1 (a port of the kernel's choosing) that, for each connection the client
/// makes to it, opens one to the proxy, makes TLS (checked as the proxy's `trust` says) and then
/// passes the bytes both ways unchanged. The client's CONNECT, its `Proxy-Authorization` and the
/// proxy's answers all travel inside that TLS; the target's TLS runs inside the tunnel as always.
///
/// Another local user who connects to the listener gets a TLS connection to the proxy and
/// nothing more: no credentials (the client sends them in each request it makes) and nothing a
/// direct connection to the proxy would not give.
public final class ProxyRelay: Sendable {
    public let port: Int
    private let listener: any Channel
    private let failure = Mutex<ConnError?>(nil)

    private init(listener: any Channel, port: Int) {
        self.listener = listener
        self.port = port
    }

    /// Starts the relay to `proxy` (named in messages as `through`); each connection to the
    /// proxy and its handshake must finish within `timeout`.
    public static func start(to proxy: ProxyServer, through: String, timeout: Duration, group: any EventLoopGroup) async throws -> ProxyRelay {
        let relay = NIOLockedValueBox<ProxyRelay?>(nil)  // set once bound; nothing connects before
        let listener = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.autoRead, value: false)  // nothing is read from the client until the proxy's side is ready
            .childChannelInitializer { inbound in
                Task { await relay.withLockedValue { $0 }?.serve(inbound, proxy: proxy, through: through, timeout: timeout) }
                return inbound.eventLoop.makeSucceededVoidFuture()
            }
            .bind(host: "127.0.0.1", port: 0).get()
        guard let port = listener.localAddress?.port else {
            try? await listener.close()
            throw ConnError.unavailable(.unreachable, "could not start the local relay to the proxy \(proxy.display)")
        }
        let made = ProxyRelay(listener: listener, port: port)
        relay.withLockedValue { $0 = made }
        return made
    }

    /// Why the last connection to the proxy failed, once: the client only sees its connection
    /// to the relay close.
    public func takeFailure() -> ConnError? {
        failure.withLock { failure in
            defer { failure = nil }
            return failure
        }
    }

    public func close() async {
        try? await listener.close()
    }

    private func serve(_ inbound: any Channel, proxy: ProxyServer, through: String, timeout: Duration) async {
        let clock = ContinuousClock()
        let start = clock.now
        let upstream: any Channel
        do {
            upstream = try await ClientBootstrap(group: inbound.eventLoop)
                .connectTimeout(.nanoseconds(timeout.nanoseconds))
                .connect(host: proxy.host, port: proxy.port).get()
        } catch {
            let why: String = switch ConnectFailure(error) {
            case .refused: "\(through) refused the connection: nothing listens at its address"
            case .noRoute: "there is no route to \(through)"
            case .nameNotResolved: "\(through): the name \(proxy.host) does not resolve"
            case nil: "\(through) cannot be reached: \(error)"
            }
            fail(inbound, ConnError(code: .proxyUnreachable, message: why,
                                    hint: "Check the proxy's address, or go without it: --proxy '' or --noproxy HOST.", exitStatus: .unavailable))
            return
        }
        switch await ProxyTunnel.secure(upstream, to: proxy, timeout: max(.zero, timeout - start.duration(to: clock.now))) {
        case .established:
            break
        case .failed(let why, _):
            try? await upstream.close()
            fail(inbound, ConnError(code: .proxyUnreachable, message: "TLS to \(through) failed: \(why)", hint: ProxyTrust.hint, exitStatus: .unavailable))
            return
        case .timeout:
            try? await upstream.close()
            fail(inbound, .temporary(.timeout, "the TLS handshake with \(through) did not finish within \(TimeFormatting.duration(timeout))",
                                     hint: HTTPTransport.timeoutHint))
            return
        }
        failure.withLock { $0 = nil }
        // Both channels run on the client's event loop: the glue hands bytes across without a hop.
        let joined = inbound.eventLoop.submit {
            let (toClient, toProxy) = RelayGlue.pair()
            try inbound.pipeline.syncOperations.addHandler(toProxy)
            try upstream.pipeline.syncOperations.addHandler(toClient)
            inbound.setOption(.autoRead, value: true).whenComplete { _ in }
            inbound.read()
            upstream.read()
        }
        do { try await joined.get() } catch {
            inbound.close(promise: nil)
            upstream.close(promise: nil)
        }
    }

    private func fail(_ inbound: any Channel, _ error: ConnError) {
        failure.withLock { $0 = error }
        inbound.close(promise: nil)
    }
}

/// One end of the relay: what its channel reads is written to the partner's channel. Reading
/// pauses while the partner cannot take more (backpressure), and either side closing closes both.
private final class RelayGlue: ChannelDuplexHandler, @unchecked Sendable {
    typealias InboundIn = NIOAny
    typealias OutboundIn = NIOAny
    typealias OutboundOut = NIOAny

    private var partner: RelayGlue?
    private var context: ChannelHandlerContext?
    private var pendingRead = false

    static func pair() -> (RelayGlue, RelayGlue) {
        let first = RelayGlue(), second = RelayGlue()
        first.partner = second
        second.partner = first
        return (first, second)
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        partner = nil
    }

    private var isWritable: Bool { context?.channel.isWritable ?? false }

    private func write(_ data: NIOAny) { context?.write(data, promise: nil) }
    private func flush() { context?.flush() }
    private func close() { context?.close(promise: nil) }

    /// The partner became writable again: a read held back goes ahead.
    private func partnerBecameWritable() {
        if pendingRead, let context {
            pendingRead = false
            context.read()
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) { partner?.write(data) }
    func channelReadComplete(context: ChannelHandlerContext) { partner?.flush() }
    func channelInactive(context: ChannelHandlerContext) { partner?.close() }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { partner?.partnerBecameWritable() }
        context.fireChannelWritabilityChanged()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    func read(context: ChannelHandlerContext) {
        if partner?.isWritable ?? false {
            context.read()
        } else {
            pendingRead = true
        }
    }
}
