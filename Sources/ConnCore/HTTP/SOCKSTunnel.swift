import Foundation
import NIOCore

/// A SOCKS5 CONNECT (RFC 1928) on a connection to a SOCKS proxy, with user and password
/// (RFC 1929) when the proxy URL has them, timed on its own: the probe's proxy rung for
/// socks5:// and socks5h:// proxies. NIOSOCKS's client speaks only the no-authentication method,
/// so the few bytes of the handshake are written here. The target's name goes to the proxy for
/// socks5h; for socks5 the caller resolves it and passes the address.
public enum SOCKSTunnel {
    /// What the proxy is asked to connect to.
    public enum Destination: Sendable, Equatable {
        /// 4 or 16 bytes.
        case address([UInt8])
        /// A name the proxy resolves (socks5h), at most 255 bytes.
        case name(String)
    }

    /// What a SOCKS5 proxy is asked for `host`: an address as it is; a name as it is for
    /// socks5h, resolved here first for socks5 (its first address).
    public static func destination(_ host: String, for proxy: ProxyServer, timeout: Duration) async throws -> Destination {
        if let literal = AddressBytes.parse(host) { return .address(literal) }
        if proxy.scheme == .socks5h { return .name(host) }
        switch await NameResolver.resolve(host: host, port: 0, timeout: timeout) {
        case .success(let found):
            if let bytes = found.lazy.compactMap({ AddressBytes.parse($0.ip) }).first { return .address(bytes) }
            throw NameResolver.Failure.notFound
        case .failure(let failure):
            throw failure
        }
    }

    /// RFC 1928's reply codes, as a person reads them.
    static func replyText(_ code: UInt8) -> String {
        switch code {
        case 1: return "general SOCKS server failure"
        case 2: return "connection not allowed by its rules"
        case 3: return "network unreachable"
        case 4: return "host unreachable"
        case 5: return "connection refused"
        case 6: return "TTL expired"
        case 7: return "command not supported"
        case 8: return "address type not supported"
        default: return "reply code \(code)"
        }
    }

    public static func open(on channel: any Channel, to destination: Destination, port: Int, proxy: ProxyServer,
                            timeout: Duration) async -> ProxyTunnel.Outcome {
        let clock = ContinuousClock()
        let start = clock.now
        func elapsed() -> Duration { start.duration(to: clock.now) }
        let reader = ByteReader()
        do {
            try await channel.eventLoop.submit { try channel.pipeline.syncOperations.addHandler(reader) }.get()
            let deadline = channel.eventLoop.scheduleTask(in: .nanoseconds(timeout.nanoseconds)) { reader.fail(Failure.timeout) }
            defer { deadline.cancel() }

            // Greeting: no authentication, and user/password when there are credentials.
            let methods: [UInt8] = proxy.user == nil ? [0x00] : [0x00, 0x02]
            try await channel.writeAndFlush(ByteBuffer(bytes: [0x05, UInt8(methods.count)] + methods))
            let chosen = try await reader.read(2, on: channel)
            guard chosen[0] == 0x05 else { return .failed(elapsed(), "the proxy answered something that is not SOCKS5") }
            switch chosen[1] {
            case 0x00:
                break
            case 0x02 where proxy.user != nil:
                let user = Array((proxy.user ?? "").utf8), password = Array((proxy.password ?? "").utf8)
                guard (1...255).contains(user.count), password.count <= 255 else {
                    return .failed(elapsed(), "a SOCKS5 user and password are at most 255 bytes each")
                }
                try await channel.writeAndFlush(ByteBuffer(bytes: [0x01, UInt8(user.count)] + user + [UInt8(password.count)] + password))
                let verdict = try await reader.read(2, on: channel)
                guard verdict[1] == 0x00 else { return .authRequired(elapsed(), challenge: nil) }
            case 0x02, 0xFF:
                // 0xFF: none of the offered methods; without credentials that means it wants some.
                return proxy.user == nil ? .authRequired(elapsed(), challenge: nil)
                    : .refused(elapsed(), statusLine: "the SOCKS5 proxy accepts none of the offered methods (none, user/password)")
            default:
                return .refused(elapsed(), statusLine: "the SOCKS5 proxy chose an authentication method conn does not speak (\(chosen[1]))")
            }

            // CONNECT.
            var request: [UInt8] = [0x05, 0x01, 0x00]
            switch destination {
            case .address(let bytes) where bytes.count == 4: request += [0x01] + bytes
            case .address(let bytes): request += [0x04] + bytes
            case .name(let name):
                let bytes = Array(name.utf8)
                guard (1...255).contains(bytes.count) else { return .failed(elapsed(), "a name sent to a SOCKS5 proxy is at most 255 bytes") }
                request += [0x03, UInt8(bytes.count)] + bytes
            }
            request += [UInt8(port >> 8 & 0xFF), UInt8(port & 0xFF)]
            try await channel.writeAndFlush(ByteBuffer(bytes: request))
            let reply = try await reader.read(4, on: channel)
            guard reply[0] == 0x05 else { return .failed(elapsed(), "the proxy answered CONNECT with something that is not SOCKS5") }
            guard reply[1] == 0x00 else {
                if let answer = ProxyAnswer.socks(reply: reply[1]) { return .targetFailed(elapsed(), answer) }
                return .refused(elapsed(), statusLine: replyText(reply[1]))
            }
            // The address the proxy bound: read and dropped.
            let rest: Int
            switch reply[3] {
            case 0x01: rest = 4 + 2
            case 0x04: rest = 16 + 2
            case 0x03: rest = Int(try await reader.read(1, on: channel)[0]) + 2
            default: return .failed(elapsed(), "the proxy's CONNECT reply has an unknown address type (\(reply[3]))")
            }
            _ = try await reader.read(rest, on: channel)
            try await reader.hand(over: channel)
            return .open(elapsed())
        } catch Failure.timeout {
            return .timeout
        } catch Failure.oversized {
            return .failed(elapsed(), "the proxy sent more than 1 KiB during the SOCKS5 handshake (a few bytes are due): not a SOCKS5 proxy")
        } catch Failure.closed {
            return .failed(elapsed(), "the proxy closed the connection during the SOCKS5 handshake")
        } catch {
            return .failed(elapsed(), "the connection to the proxy failed during the SOCKS5 handshake: \(error)")
        }
    }

    enum Failure: Error { case timeout, closed, oversized }

    /// Collects the proxy's bytes and hands out exactly as many as asked; all of its state is
    /// touched on the channel's event loop.
    final class ByteReader: ChannelInboundHandler, RemovableChannelHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        typealias InboundOut = ByteBuffer

        private var collected: [UInt8] = []
        private var pending: (count: Int, promise: EventLoopPromise<[UInt8]>)?
        private var failure: (any Error)?
        private var context: ChannelHandlerContext?

        func handlerAdded(context: ChannelHandlerContext) { self.context = context }

        /// Set when the handshake is done and the handler leaves the pipeline on purpose.
        private var handingOver = false

        func handlerRemoved(context: ChannelHandlerContext) {
            // Bytes that came after the handshake's belong to the tunnel. A channel that closes
            // removes its handlers too: then what came stays here for the reads still to come
            // (an answer and the close can arrive before the read that wants them is asked).
            if handingOver, !collected.isEmpty {
                context.fireChannelRead(wrapInboundOut(ByteBuffer(bytes: collected)))
                collected = []
            }
            self.context = nil
        }

        func read(_ count: Int, on channel: any Channel) async throws -> [UInt8] {
            let promise = channel.eventLoop.makePromise(of: [UInt8].self)
            channel.eventLoop.execute {
                self.pending = (count, promise)
                self.deliver()
            }
            return try await promise.futureResult.get()
        }

        func hand(over channel: any Channel) async throws {
            try await channel.eventLoop.submit { self.handingOver = true }.get()
            try await channel.pipeline.removeHandler(self).get()
        }

        /// Fails the read in progress (and every later one); closes the connection. On the
        /// channel's event loop (a scheduled task).
        func fail(_ error: any Error) {
            if failure == nil { failure = error }
            deliver()
            context?.close(promise: nil)
        }

        private func deliver() {
            guard let (count, promise) = pending else { return }
            if collected.count >= count {
                pending = nil
                let bytes = Array(collected.prefix(count))
                collected.removeFirst(count)
                promise.succeed(bytes)
            } else if let failure {
                pending = nil
                promise.fail(failure)
            }
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            collected += unwrapInboundIn(data).readableBytesView
            // The handshake's answers are a few hundred bytes at most; more is not a SOCKS proxy.
            if collected.count > 1024, failure == nil {
                failure = Failure.oversized
                context.close(promise: nil)
            }
            deliver()
        }

        func channelInactive(context: ChannelHandlerContext) {
            if failure == nil { failure = Failure.closed }
            deliver()
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            if failure == nil { failure = error }
            deliver()
            context.close(promise: nil)
        }
    }
}
