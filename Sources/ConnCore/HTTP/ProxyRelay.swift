import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization

/// The tunnels of conn's HTTP client (AsyncHTTPClient), made by conn: a listener on 127.0.0.1 (a
/// port of the kernel's choosing) that reads the client's CONNECT, opens the way to the target
/// through the proxy itself — TLS to an https:// proxy (checked as its `trust` says), then CONNECT
/// with the proxy's credentials, or SOCKS5's handshake (RFC 1929 credentials, socks5:// resolving
/// names here), `ProxyTunnel.open` — answers 200 and passes the bytes both ways unchanged. The
/// client's own proxy support cannot speak TLS or SOCKS5 with credentials to a proxy, and reads
/// nothing of a refused CONNECT but "invalid proxy response": here the proxy's answer is read
/// (`ProxyAnswer`: squid's 503 for a refused target is the target's failure, not the proxy's)
/// and kept for the request's error (`takeFailure`). The target's TLS runs inside the tunnel.
///
/// Another local user who connects to the listener gets nothing: a CONNECT without the relay's
/// secret (`clientPassword`) is closed on before the proxy is asked anything.
public final class ProxyRelay: Sendable {
    public let port: Int
    /// What the client must send in its CONNECT's `Proxy-Authorization` (Basic): the relay adds
    /// the proxy's own credentials, so another local user who connects without this is closed
    /// on. Random per relay; it never leaves the process but to loopback.
    public let clientUser = "conn-relay"
    public let clientPassword = UUID().uuidString
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
            // The CONNECT head is read at once, into the reader set up here (set up in a task
            // instead, it sometimes came before the channel could read, and the head sat unread
            // until the client gave up).
            .childChannelOption(.autoRead, value: true)
            .childChannelInitializer { inbound in
                let promise = inbound.eventLoop.makePromise(of: String.self)
                let reader = ProxyTunnel.HeadReader(promise, limit: ProxyTunnel.maxHeadBytes)
                do { try inbound.pipeline.syncOperations.addHandler(reader) } catch { return inbound.eventLoop.makeFailedFuture(error) }
                let head = promise.futureResult.flatMap { text in inbound.pipeline.removeHandler(reader).map { text } }
                Task { await relay.withLockedValue { $0 }?.serve(inbound, head: head, proxy: proxy, through: through, timeout: timeout) }
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

    private func serve(_ inbound: any Channel, head: EventLoopFuture<String>, proxy: ProxyServer, through: String, timeout: Duration) async {
        let clock = ContinuousClock()
        let start = clock.now
        func remaining() -> Duration { max(.zero, timeout - start.duration(to: clock.now)) }
        // The client's CONNECT comes first: one without the relay's secret is closed on before
        // the proxy is asked anything.
        guard let target = await readConnect(head, on: inbound, within: remaining()) else {
            inbound.close(promise: nil)
            return
        }
        let upstream: any Channel
        do {
            upstream = try await ClientBootstrap(group: inbound.eventLoop)
                .connectTimeout(.nanoseconds(timeout.nanoseconds))
                .connect(host: proxy.host, port: proxy.port).get()
        } catch {
            fail(inbound, ProxiedConnection.unreachable(error, proxy: proxy, named: through)
                 ?? ConnError.unavailable(.proxyUnreachable, "\(through) cannot be reached: \(error)"))
            return
        }
        // TLS to an https:// proxy, then its CONNECT (or SOCKS5's handshake); the client's
        // CONNECT is answered here.
        let outcome = await ProxyTunnel.open(on: upstream, to: target.host, port: target.port, through: proxy, timeout: remaining())
        let opened = "\(target.host):\(target.port)"
        if let failure = ProxiedConnection.failure(outcome, proxy: proxy, host: target.host, target: opened, named: through) {
            upstream.close(promise: nil)
            fail(inbound, failure as? ConnError ?? .temporary(.timeout, "\(through) did not open the way to \(opened) within \(TimeFormatting.duration(timeout))",
                                                                hint: HTTPTransport.timeoutHint))
            return
        }
        let answer = "HTTP/1.1 200 Connection established\r\n\r\n"  // written once the glue is in place
        failure.withLock { $0 = nil }
        // Both channels run on the client's event loop: the glue hands bytes across without a hop.
        // The 200 goes out after it is in place: the request that follows it must find the glue.
        let joined = inbound.eventLoop.submit {
            let (toClient, toProxy) = RelayGlue.pair()
            try inbound.pipeline.syncOperations.addHandler(toProxy)
            try upstream.pipeline.syncOperations.addHandler(toClient)
            inbound.writeAndFlush(ByteBuffer(string: answer), promise: nil)
            inbound.setOption(.autoRead, value: true).whenComplete { _ in }
            inbound.read()
            upstream.read()
        }
        do { try await joined.get() } catch {
            inbound.close(promise: nil)
            upstream.close(promise: nil)
        }
    }

    /// The client's `CONNECT host:port HTTP/1.1` head (it sends nothing more before the answer)
    /// with the relay's secret; nil for anything else, or nothing in time.
    private func readConnect(_ head: EventLoopFuture<String>, on inbound: any Channel, within timeout: Duration) async -> (host: String, port: Int)? {
        let deadline = inbound.eventLoop.scheduleTask(in: .nanoseconds(timeout.nanoseconds)) { inbound.close(promise: nil) }
        defer { deadline.cancel() }
        do {
            let text = try await head.get()
            let lines = text.split(whereSeparator: \.isNewline)
            let expected = Data("\(clientUser):\(clientPassword)".utf8).base64EncodedString()
            let authorized = lines.contains { line in
                let parts = line.split(separator: ":", maxSplits: 1)
                guard parts.count == 2, parts[0].lowercased() == "proxy-authorization" else { return false }
                let value = parts[1].split(separator: " ", omittingEmptySubsequences: true)
                return value.count == 2 && value[0].lowercased() == "basic" && value[1] == expected
            }
            guard authorized else { return nil }
            let words = (lines.first ?? "").split(separator: " ")
            guard words.count == 3, words[0] == "CONNECT", let colon = words[1].lastIndex(of: ":"),
                  let port = Int(words[1][words[1].index(after: colon)...]), (1...65535).contains(port) else { return nil }
            var host = String(words[1][..<colon])
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            return host.isEmpty ? nil : (host, port)
        } catch {
            return nil
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
