import ConnCore
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// One HTTP/1.1 GET on the ladder's own connection: the channel it opened and secured (https),
/// or for plain http one it opens, or takes from the run's pool, in the same pass. The HTTP rung
/// is timed on that connection, as curl's time_starttransfer is; no HTTP client pool is involved.
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

    /// A channel with the HTTP codec and a collector in its pipeline.
    struct Connection: Sendable {
        let channel: any Channel
        let collector: ResponseCollector
    }

    static func get(_ url: URL, on channel: any Channel, headers extra: [(String, String)], maxBytes: Int, timeout: Duration) async throws -> Response {
        let head = requestHead(for: url, headers: extra)
        let start = ContinuousClock.now
        let connection = Connection(channel: channel, collector: ResponseCollector(maxBytes: maxBytes))
        try await channel.eventLoop.submit {
            try channel.pipeline.syncOperations.addHTTPClientHandlers()
            try channel.pipeline.syncOperations.addHandler(connection.collector)
        }.get()
        return try await channel.eventLoop.flatSubmit { request(head, on: connection, timeout: timeout, from: start) }.get()
    }

    /// Writes the request and waits for its answer, on the channel's event loop (call it there),
    /// for at most `timeout`; the answer's `elapsed` counts from `start`. A connection that is
    /// closed, or whose collector saw something unasked, fails at once with `closedEarly`. The
    /// answer's promise exists only while the collector is in the pipeline of an open channel,
    /// so the collector, the deadline or this check always completes it (a promise left pending
    /// is a crash in SwiftNIO's debug builds, seen when a server died between the TCP rung and
    /// the request).
    private static func request(_ head: HTTPRequestHead, on connection: Connection, timeout: Duration,
                                from start: ContinuousClock.Instant) -> EventLoopFuture<Response> {
        let channel = connection.channel
        guard connection.collector.isReusable, channel.isActive else { return channel.eventLoop.makeFailedFuture(Failure.closedEarly) }
        let answer = channel.eventLoop.makePromise(of: (HTTPResponseHead, ByteBuffer).self)
        connection.collector.expect(answer)
        let deadline = channel.eventLoop.scheduleTask(in: .nanoseconds(timeout.nanoseconds)) { answer.fail(Failure.timeout) }
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
        return answer.futureResult
            .map { head, body in
                Response(status: Int(head.status.code), headers: head.headers, body: body, elapsed: start.duration(to: .now))
            }
            .always { _ in deadline.cancel() }
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
    static func connectAndGet(_ url: URL, address: ResolvedAddress, headers extra: [(String, String)], maxBytes: Int,
                              timeout: Duration, pool: ConnectionPool?) async -> PlainOutcome {
        guard let socketAddress = address.socketAddress else { return .notConnected(.failed("bad address \(address.ip)")) }
        let head = requestHead(for: url, headers: extra, keepAlive: pool != nil)
        let key = ConnectionPool.key(host: url.host ?? "", address: socketAddress)
        // A kept-alive connection the server closed meanwhile gives no answer at all: that is
        // not the target's verdict, so it is tried on a new connection.
        while let idle = pool?.take(key) {
            let outcome = await value(of: idle.channel.eventLoop.flatSubmit {
                send(head, on: idle, timeout: timeout, tcp: .zero, reused: true, pool: pool, key: key)
            })
            if case .connected(_, _, .failure(Failure.closedEarly)) = outcome { continue }
            return outcome
        }
        let eventLoop = MultiThreadedEventLoopGroup.singleton.next()
        let start = ContinuousClock.now
        let collector = ResponseCollector(maxBytes: maxBytes)
        let bootstrap = ClientBootstrap(group: eventLoop)
            .connectTimeout(.nanoseconds(timeout.nanoseconds))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(collector)
                }
            }
        let outcome = bootstrap.connect(to: socketAddress).flatMap { channel -> EventLoopFuture<PlainOutcome> in
            send(head, on: Connection(channel: channel, collector: collector), timeout: timeout, tcp: start.duration(to: .now),
                 reused: false, pool: pool, key: key)
        }.recover { error in
            PlainOutcome.notConnected(ConnectionProber.tcpFailure(error, after: start.duration(to: .now)))
        }
        return await value(of: outcome)
    }

    /// One request and its answer (see `request`); then the connection goes back to the pool
    /// when it can carry another request, else it is closed. On the channel's event loop.
    private static func send(_ head: HTTPRequestHead, on connection: Connection, timeout: Duration, tcp: Duration, reused: Bool,
                             pool: ConnectionPool?, key: String) -> EventLoopFuture<PlainOutcome> {
        let channel = connection.channel
        return request(head, on: connection, timeout: timeout, from: .now)
            .always { result in
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

