import Foundation
import NIOCore
import NIOSSL

/// A CONNECT on a connection to an HTTP proxy, timed on its own: the probe's proxy rung, and the
/// live link's way through a proxy. A proxy that refuses, wants credentials or says nothing is
/// its own verdict rather than the target's. The proxy's credentials go in `Proxy-Authorization` here and nowhere else; the
/// target's token travels inside the tunnel.
public enum ProxyTunnel {
    public enum Outcome: Sendable {
        /// 2xx: the channel now carries bytes to and from the target.
        case open(Duration)
        /// 407, with the proxy's `Proxy-Authenticate` (sanitised).
        case authRequired(Duration, challenge: String?)
        /// Another status: the proxy's status line (sanitised).
        case refused(Duration, statusLine: String)
        /// The proxy could not reach the target, and said so (`ProxyAnswer`): the target's failure.
        case targetFailed(Duration, ProxyAnswer)
        /// Closed, garbage, or a head larger than `maxHeadBytes`.
        case failed(Duration, String)
        case timeout
        /// socks5:// only: the target's name does not resolve here (socks5 resolves it locally).
        case unresolved
        /// https:// only: TLS to the proxy itself failed (its certificate, or the handshake).
        case tlsFailed(Duration, String)
    }

    /// The whole way through `proxy` on a channel connected to it: TLS to an https:// proxy
    /// first, then its tunnel (`tunnel`).
    public static func open(on channel: any Channel, to host: String, port: Int, through proxy: ProxyServer, timeout: Duration) async -> Outcome {
        let clock = ContinuousClock()
        let start = clock.now
        if proxy.scheme == .https {
            let secured = await securing(channel, to: proxy, timeout: timeout)
            guard case .open = secured else { return secured }
        }
        return await tunnel(on: channel, to: host, port: port, through: proxy, timeout: max(.zero, timeout - start.duration(to: clock.now)))
    }

    /// `secure` as a tunnel's outcome: `.open` once TLS to the proxy is made, `.tlsFailed` or
    /// `.timeout` when it is not (for callers that go on inside it without a rung of their own).
    public static func securing(_ channel: any Channel, to proxy: ProxyServer, timeout: Duration) async -> Outcome {
        switch await secure(channel, to: proxy, timeout: timeout) {
        case .established(let elapsed, _, _): .open(elapsed)
        case .failed(let why, let elapsed): .tlsFailed(elapsed, why)
        case .timeout: .timeout
        }
    }

    /// TLS to an https:// proxy, checked as its `trust` says, the name sent and checked its host's.
    public static func secure(_ channel: any Channel, to proxy: ProxyServer, timeout: Duration) async -> TLSHandshake.Outcome {
        let configuration: TLSConfiguration
        do { configuration = try proxy.trust.tlsConfiguration() } catch { return .failed(String(describing: error), .zero) }
        return await TLSHandshake.run(on: channel, configuration: configuration, serverName: ClientTLS.serverName(for: proxy.host), timeout: timeout)
    }

    /// The tunnel `proxy` speaks, on a channel to it (inside TLS for https://): CONNECT for
    /// http:// and https://, the SOCKS5 handshake for socks5:// and socks5h:// (`SOCKSTunnel`;
    /// socks5 resolves `host` here first).
    public static func tunnel(on channel: any Channel, to host: String, port: Int, through proxy: ProxyServer, timeout: Duration) async -> Outcome {
        switch proxy.scheme {
        case .http, .https:
            return await open(on: channel, to: host, port: port, proxy: proxy, timeout: timeout)
        case .socks5, .socks5h:
            guard let destination = try? await SOCKSTunnel.destination(host, for: proxy, timeout: timeout) else { return .unresolved }
            return await SOCKSTunnel.open(on: channel, to: destination, port: port, proxy: proxy, timeout: timeout)
        }
    }

    /// The most of a proxy's answer read before giving up on it (a 1 GB 407 body is never read:
    /// only the head is, and the connection closed).
    public static let maxHeadBytes = 16 * 1024

    public static func open(on channel: any Channel, to host: String, port: Int, proxy: ProxyServer, timeout: Duration) async -> Outcome {
        let clock = ContinuousClock()
        let start = clock.now
        let authority = (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
        var request = "CONNECT \(authority) HTTP/1.1\r\nHost: \(authority)\r\nUser-Agent: conn/\(ConnVersion.current)\r\n"
        if let authorization = ProxyForwarding.authorization(for: proxy) { request += "Proxy-Authorization: \(authorization)\r\n" }
        request += "\r\n"
        let head = channel.eventLoop.makePromise(of: String.self)
        // Completed on every way out (a pending promise is a crash in SwiftNIO's debug builds).
        defer { head.fail(ChannelError.ioOnClosedChannel) }
        do {
            let reader = HeadReader(head, limit: maxHeadBytes)
            try await channel.eventLoop.submit { try channel.pipeline.syncOperations.addHandler(reader) }.get()
            let deadline = channel.eventLoop.scheduleTask(in: .nanoseconds(timeout.nanoseconds)) { head.fail(ChannelError.connectTimeout(.nanoseconds(timeout.nanoseconds))) }
            defer { deadline.cancel() }
            try await channel.writeAndFlush(ByteBuffer(string: request))
            let text = try await head.futureResult.get()
            _ = try? await channel.pipeline.removeHandler(reader).get()
            let elapsed = start.duration(to: clock.now)
            let lines = text.split(whereSeparator: \.isNewline)
            let statusLine = String(lines.first ?? "")
            let parts = statusLine.split(separator: " ", maxSplits: 2)
            guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]), (100...599).contains(status) else {
                return .failed(elapsed, "the proxy answered something that is not HTTP: \(TerminalSanitizer.sanitize(String(statusLine.prefix(80)), keepNewlines: false))")
            }
            let shown = TerminalSanitizer.sanitize(String(statusLine.prefix(200)), keepNewlines: false)
            switch status {
            case 200..<300:
                return .open(elapsed)
            case 407:
                let challenge = lines.first { $0.lowercased().hasPrefix("proxy-authenticate:") }
                    .map { TerminalSanitizer.sanitize(String($0.dropFirst("proxy-authenticate:".count).trimmingCharacters(in: .whitespaces).prefix(200)), keepNewlines: false) }
                return .authRequired(elapsed, challenge: challenge)
            default:
                let headers = lines.dropFirst().compactMap { line -> (String, String)? in
                    guard let colon = line.firstIndex(of: ":") else { return nil }
                    return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
                }
                if let answer = ProxyAnswer.read(status: status, reason: parts.count > 2 ? String(parts[2]) : nil, headers: headers, toConnect: true) {
                    return .targetFailed(elapsed, answer)
                }
                // squid names its rule (`ERR_ACCESS_DENIED`: its stock rules allow CONNECT to 443 only).
                let squid = headers.first { $0.0.caseInsensitiveCompare("X-Squid-Error") == .orderedSame }
                    .map { " (" + TerminalSanitizer.sanitize(String($0.1.prefix(80)), keepNewlines: false) + ")" } ?? ""
                return .refused(elapsed, statusLine: shown + squid)
            }
        } catch ChannelError.connectTimeout {
            return .timeout
        } catch HeadReader.Failure.tooLarge {
            return .failed(start.duration(to: clock.now), "the proxy's answer to CONNECT has a head of more than \(maxHeadBytes / 1024) KiB")
        } catch {
            return .failed(start.duration(to: clock.now), "the proxy closed the connection before answering CONNECT")
        }
    }

    /// Collects bytes until the end of an HTTP head (a blank line), at most `limit` of them.
    final class HeadReader: ChannelInboundHandler, RemovableChannelHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        enum Failure: Error { case tooLarge, closed }

        private let promise: EventLoopPromise<String>
        private let limit: Int
        private var collected = [UInt8]()
        private var done = false

        init(_ promise: EventLoopPromise<String>, limit: Int) {
            self.promise = promise
            self.limit = limit
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !done else { return }
            let buffer = unwrapInboundIn(data)
            collected += buffer.readableBytesView
            if let end = Self.headEnd(collected) {
                done = true
                promise.succeed(String(decoding: collected[..<end], as: UTF8.self))
            } else if collected.count > limit {
                done = true
                promise.fail(Failure.tooLarge)
                context.close(promise: nil)
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            if !done { done = true; promise.fail(Failure.closed) }
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            if !done { done = true; promise.fail(error) }
            context.close(promise: nil)
        }

        /// Where the head ends (after "\r\n\r\n", or "\n\n" from a sloppy proxy).
        static func headEnd(_ bytes: [UInt8]) -> Int? {
            var index = 0
            while index + 1 < bytes.count {
                if bytes[index] == 0x0A {
                    if bytes[index + 1] == 0x0A { return index + 2 }
                    if index + 2 < bytes.count, bytes[index + 1] == 0x0D, bytes[index + 2] == 0x0A { return index + 3 }
                }
                index += 1
            }
            return nil
        }
    }
}
