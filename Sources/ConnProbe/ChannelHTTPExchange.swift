import ConnCore
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// One HTTP/1.1 GET on a channel the ladder already opened (and secured, for https): the HTTP
/// rung is timed on the same connection, as curl's time_starttransfer is, and no second
/// connection or client pool is needed.
enum ChannelHTTPExchange {
    struct Response {
        var status: Int
        var headers: HTTPHeaders
        var body: ByteBuffer
        var elapsed: Duration
    }

    enum Failure: Error {
        case timeout
        case closedEarly
        case tooLarge
    }

    /// A GET of the URL's path and query. Without `keepAlive` it asks the server to close the
    /// connection after its answer.
    static func requestHead(for url: URL, headers extra: [(String, String)], keepAlive: Bool = false) -> HTTPRequestHead {
        var path = url.path.isEmpty ? "/" : url.path
        if let query = url.query { path += "?" + query }
        var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path)
        let defaultPort = url.scheme == "https" ? 443 : 80
        let host = (url.host ?? "").contains(":") ? "[\(url.host!)]" : (url.host ?? "")
        head.headers.add(name: "Host", value: url.port.map { $0 == defaultPort ? host : "\(host):\($0)" } ?? host)
        head.headers.add(name: "User-Agent", value: "conn/\(ConnVersion.current)")
        head.headers.add(name: "Accept", value: "*/*")
        if !keepAlive { head.headers.add(name: "Connection", value: "close") }
        for (name, value) in extra { head.headers.add(name: name, value: value) }
        return head
    }

    static func get(_ url: URL, on channel: any Channel, headers extra: [(String, String)], maxBytes: Int, timeout: Duration) async throws -> Response {
        let head = requestHead(for: url, headers: extra)
        let clock = ContinuousClock()
        let start = clock.now
        let promise = channel.eventLoop.makePromise(of: (HTTPResponseHead, ByteBuffer).self)
        // Every way out completes the promise (a no-op once it is): a channel that closed before
        // the collector was added never tells it, and a promise left pending is a crash in
        // SwiftNIO's debug builds ("leaking promise") — seen when a server died between the TCP
        // rung and the request.
        defer { promise.fail(Failure.closedEarly) }
        try await channel.eventLoop.submit {
            let collector = ResponseCollector(maxBytes: maxBytes)
            collector.expect(promise)
            try channel.pipeline.syncOperations.addHTTPClientHandlers()
            try channel.pipeline.syncOperations.addHandler(collector)
        }.get()
        let deadline = channel.eventLoop.scheduleTask(in: .nanoseconds(timeout.nanoseconds)) { promise.fail(Failure.timeout) }
        defer { deadline.cancel() }
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        try await channel.writeAndFlush(HTTPClientRequestPart.end(nil)).get()
        let (responseHead, body) = try await promise.futureResult.get()
        return Response(status: Int(responseHead.status.code), headers: responseHead.headers, body: body, elapsed: start.duration(to: clock.now))
    }

    /// What a plain-http target's TCP and HTTP rungs found.
    enum PlainOutcome {
        /// The connection failed: the TCP rung's verdict.
        case notConnected(ConnectionProber.TCPResult)
        /// Connected after `tcp` (zero for a kept-alive connection of the run, `reused`); then
        /// the answer, or why there was none.
        case connected(tcp: Duration, reused: Bool, answer: Result<Response, any Error>)
    }

    /// TCP and HTTP for a plain-http target, end to end on the channel's event loop: the
    /// handlers are in place before the connection completes, the request is written as it
    /// does, and the channel is closed (or, with a pool, kept for the origin's next target) as
    /// the answer ends. A target costs one hand-off between Swift concurrency and SwiftNIO
    /// instead of one per step; with 1,000 targets those hand-offs were the largest cost
    /// (BENCHMARKS.md, "probe --file").
    static func connectAndGet(_ url: URL, address: SocketAddress, headers extra: [(String, String)], maxBytes: Int,
                              timeout: Duration, pool: ConnectionPool?) async -> PlainOutcome {
        let head = requestHead(for: url, headers: extra, keepAlive: pool != nil)
        let key = ConnectionPool.key(host: url.host ?? "", address: address)
        // A kept-alive connection the server closed meanwhile gives no answer at all: that is
        // not the target's verdict, so it is tried on a new connection.
        while let idle = pool?.take(key) {
            let outcome = await exchange(head, on: idle, timeout: timeout, tcp: .zero, reused: true, pool: pool, key: key)
            if case .connected(_, _, .failure(Failure.closedEarly)) = outcome { continue }
            return outcome
        }
        let eventLoop = MultiThreadedEventLoopGroup.singleton.next()
        let clock = ContinuousClock()
        let start = clock.now
        let collector = ResponseCollector(maxBytes: maxBytes)
        let bootstrap = ClientBootstrap(group: eventLoop)
            .connectTimeout(.nanoseconds(timeout.nanoseconds))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(collector)
                }
            }
        let outcome = bootstrap.connect(to: address).flatMap { channel -> EventLoopFuture<PlainOutcome> in
            send(head, on: ConnectionPool.Idle(channel: channel, collector: collector), timeout: timeout, tcp: start.duration(to: clock.now),
                 reused: false, pool: pool, key: key)
        }.recover { error in
            PlainOutcome.notConnected(ConnectionProber.tcpFailure(error, after: start.duration(to: clock.now)))
        }
        return await value(of: outcome)
    }

    /// One request and its answer on a kept-alive connection, from Swift concurrency.
    private static func exchange(_ head: HTTPRequestHead, on connection: ConnectionPool.Idle, timeout: Duration, tcp: Duration, reused: Bool,
                                 pool: ConnectionPool?, key: String) async -> PlainOutcome {
        let eventLoop = connection.channel.eventLoop
        return await value(of: eventLoop.flatSubmit {
            send(head, on: connection, timeout: timeout, tcp: tcp, reused: reused, pool: pool, key: key)
        })
    }

    /// Writes the request and waits for its answer, on the channel's event loop; then keeps the
    /// connection in the pool when it can carry another request, else closes it.
    private static func send(_ head: HTTPRequestHead, on connection: ConnectionPool.Idle, timeout: Duration, tcp: Duration, reused: Bool,
                             pool: ConnectionPool?, key: String) -> EventLoopFuture<PlainOutcome> {
        let channel = connection.channel
        guard connection.collector.isReusable, channel.isActive else {
            channel.close(promise: nil)
            return channel.eventLoop.makeSucceededFuture(.connected(tcp: tcp, reused: reused, answer: .failure(Failure.closedEarly)))
        }
        let answer = channel.eventLoop.makePromise(of: (HTTPResponseHead, ByteBuffer).self)
        connection.collector.expect(answer)
        let clock = ContinuousClock()
        let sent = clock.now
        let deadline = channel.eventLoop.scheduleTask(in: .nanoseconds(timeout.nanoseconds)) { answer.fail(Failure.timeout) }
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
        return answer.futureResult
            .map { head, body in
                Response(status: Int(head.status.code), headers: head.headers, body: body, elapsed: sent.duration(to: clock.now))
            }
            .always { result in
                deadline.cancel()
                if let pool, case .success = result, connection.collector.isReusable, channel.isActive {
                    pool.keep(connection, for: key)
                } else {
                    channel.close(promise: nil)
                }
            }
            .map { PlainOutcome.connected(tcp: tcp, reused: reused, answer: .success($0)) }
            .recover { PlainOutcome.connected(tcp: tcp, reused: reused, answer: .failure($0)) }
    }

    /// The outcome of a future whose failures are all recovered.
    private static func value(of outcome: EventLoopFuture<PlainOutcome>) async -> PlainOutcome {
        do {
            return try await outcome.get()
        } catch {
            return .notConnected(.failed(String(describing: error)))  // not reached: every failure is recovered
        }
    }
}

