import Foundation
import NIOCore
import NIOHTTP1

/// HTTP/1.1 GETs on a channel of the caller's own, with SwiftNIO directly and no client pool:
/// the probe's ladder times its HTTP rung on the connection it opened and secured (as curl's
/// time_starttransfer is), and the clock's json method reads t1 and t4 on the event loop, as
/// near the socket as the stack allows. Everything else goes through `HTTPTransport`.
public enum ChannelHTTPExchange {
    public struct Response: Sendable {
        public var status: Int
        public var headers: HTTPHeaders
        public var body: ByteBuffer
        /// From the request's start to the answer's end.
        public var elapsed: Duration
        /// From the request's start to the answer's head (the rest is the body's transfer).
        public var untilHead: Duration
        /// The answer's HTTP version: `1.1`, `1.0`.
        public var version: HTTPVersion
    }

    public enum Failure: Error {
        /// Nothing of the answer came within the deadline.
        case timeout
        /// The answer's head came (with this status), its body did not end within the deadline.
        case bodyTimeout(status: Int)
        case closedEarly
        case tooLarge
    }

    /// A GET (or `method`) of the URL's path and query, as written (percent-encoding kept).
    /// Without `keepAlive` it asks the server to close the connection after its answer. `Accept`
    /// is `*/*` unless `extra` names one. With `proxy` (an HTTP proxy, a plain-http URL) the
    /// request line carries the whole URL (absolute form, RFC 9112 §3.2.2) and the proxy's
    /// credentials go in `Proxy-Authorization`: see `ProxyForwarding`.
    public static func requestHead(for url: URL, method: HTTPMethod = .GET, headers extra: [(String, String)], keepAlive: Bool = false,
                                   proxy: ProxyServer? = nil) -> HTTPRequestHead {
        let encodedPath = url.path(percentEncoded: true)
        var path = encodedPath.isEmpty ? "/" : encodedPath
        if let query = url.query(percentEncoded: true) { path += "?" + query }
        let defaultPort = url.scheme == "https" ? 443 : 80
        let host = (url.host ?? "").contains(":") ? "[\(url.host!)]" : (url.host ?? "")
        let authority = url.port.map { $0 == defaultPort ? host : "\(host):\($0)" } ?? host
        var head = HTTPRequestHead(version: .http1_1, method: method, uri: proxy == nil ? path : "\(url.scheme?.lowercased() ?? "http")://\(authority)\(path)")
        head.headers.add(name: "Host", value: authority)
        if let proxy, let authorization = ProxyForwarding.authorization(for: proxy) {
            head.headers.add(name: "Proxy-Authorization", value: authorization)
        }
        head.headers.add(name: "User-Agent", value: "conn/\(ConnVersion.current)")
        if !extra.contains(where: { $0.0.caseInsensitiveCompare("Accept") == .orderedSame }) {
            head.headers.add(name: "Accept", value: "*/*")
        }
        if !keepAlive { head.headers.add(name: "Connection", value: "close") }
        for (name, value) in extra { head.headers.add(name: name, value: value) }
        return head
    }

    /// A channel with the HTTP codec and a collector in its pipeline.
    public struct Connection: Sendable {
        public let channel: any Channel
        public let collector: ResponseCollector

        public init(channel: any Channel, collector: ResponseCollector) {
            self.channel = channel
            self.collector = collector
        }
    }

    /// Adds the HTTP codec and a collector to a connected (and, for https, secured) channel and
    /// makes one GET on it, asking the server to close afterwards.
    public static func get(_ url: URL, on channel: any Channel, headers extra: [(String, String)], maxBytes: Int,
                           timeout: Duration, proxy: ProxyServer? = nil) async throws -> Response {
        let head = requestHead(for: url, headers: extra, proxy: proxy)
        let start = ContinuousClock.now
        let connection = Connection(channel: channel, collector: ResponseCollector(maxBytes: maxBytes))
        let sniffer = proxy.map { ProxyForwarding.guardAnswers(of: connection.collector, url: url, proxy: $0) }
        try await channel.eventLoop.submit {
            if let sniffer { try channel.pipeline.syncOperations.addHandler(sniffer) }
            try channel.pipeline.syncOperations.addHTTPClientHandlers()
            try channel.pipeline.syncOperations.addHandler(connection.collector)
        }.get()
        do {
            return try await channel.eventLoop.flatSubmit { request(head, on: connection, timeout: timeout, from: start) }.get()
        } catch {
            guard let proxy, let unreadable = ProxyForwarding.unreadableAuthentication(error, sniffer: sniffer, url: url, proxy: proxy, named: "the proxy")
            else { throw error }
            throw unreadable
        }
    }

    /// Writes the request and waits for its answer, on the channel's event loop (call it there),
    /// for at most `timeout`; the answer's `elapsed` counts from `start`. A connection that is
    /// closed, or whose collector saw something unasked, fails at once with `closedEarly`. The
    /// answer's promise exists only while the collector is in the pipeline of an open channel,
    /// so the collector, the deadline or this check always completes it (a promise left pending
    /// is a crash in SwiftNIO's debug builds, seen when a server died between the TCP rung and
    /// the request).
    public static func request(_ head: HTTPRequestHead, body: ByteBuffer? = nil, on connection: Connection, timeout: Duration,
                               from start: ContinuousClock.Instant) -> EventLoopFuture<Response> {
        let channel = connection.channel
        guard connection.collector.isReusable, channel.isActive else {
            return channel.eventLoop.makeFailedFuture(connection.collector.failureBeforeFirstRequest ?? Failure.closedEarly)
        }
        let answer = channel.eventLoop.makePromise(of: (HTTPResponseHead, ByteBuffer).self)
        connection.collector.expect(answer)
        // A head already in hand is said: a body that stalls is not a server that never answered.
        let deadline = channel.eventLoop.scheduleTask(in: .nanoseconds(timeout.nanoseconds)) {
            answer.fail(connection.collector.headStatus.map { Failure.bodyTimeout(status: $0) } ?? Failure.timeout)
        }
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        if let body, body.readableBytes > 0 { channel.write(HTTPClientRequestPart.body(.byteBuffer(body)), promise: nil) }
        channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
        return answer.futureResult
            .map { head, body in
                let end = ContinuousClock.now
                let headArrival = connection.collector.headArrival ?? end  // read on the event loop, as the collector wants
                return Response(status: Int(head.status.code), headers: head.headers, body: body, elapsed: start.duration(to: end),
                                untilHead: start.duration(to: headArrival), version: head.version)
            }
            .always { _ in deadline.cancel() }
    }
}
