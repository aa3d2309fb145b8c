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

    /// A GET of the URL's path and query that asks the server to close the connection after.
    static func requestHead(for url: URL, headers extra: [(String, String)]) -> HTTPRequestHead {
        var path = url.path.isEmpty ? "/" : url.path
        if let query = url.query { path += "?" + query }
        var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path)
        let defaultPort = url.scheme == "https" ? 443 : 80
        let host = (url.host ?? "").contains(":") ? "[\(url.host!)]" : (url.host ?? "")
        head.headers.add(name: "Host", value: url.port.map { $0 == defaultPort ? host : "\(host):\($0)" } ?? host)
        head.headers.add(name: "User-Agent", value: "conn/\(ConnVersion.current)")
        head.headers.add(name: "Accept", value: "*/*")
        head.headers.add(name: "Connection", value: "close")
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
            try channel.pipeline.syncOperations.addHTTPClientHandlers()
            try channel.pipeline.syncOperations.addHandler(ResponseCollector(promise: promise, maxBytes: maxBytes))
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
        /// Connected after `tcp`; then the answer, or why there was none.
        case connected(tcp: Duration, answer: Result<Response, any Error>)
    }

    /// TCP and HTTP for a plain-http target, end to end on the channel's event loop: the
    /// handlers are in place before the connection completes, the request is written as it
    /// does, and the channel is closed as the answer ends. A target costs one hand-off between
    /// Swift concurrency and SwiftNIO instead of one per step; with 1,000 targets those
    /// hand-offs were the largest cost (BENCHMARKS.md, "probe --file").
    static func connectAndGet(_ url: URL, address: SocketAddress, headers extra: [(String, String)], maxBytes: Int,
                              timeout: Duration) async -> PlainOutcome {
        let eventLoop = MultiThreadedEventLoopGroup.singleton.next()
        let head = requestHead(for: url, headers: extra)
        let clock = ContinuousClock()
        let start = clock.now
        let answer = eventLoop.makePromise(of: (HTTPResponseHead, ByteBuffer).self)
        let bootstrap = ClientBootstrap(group: eventLoop)
            .connectTimeout(.nanoseconds(timeout.nanoseconds))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(ResponseCollector(promise: answer, maxBytes: maxBytes))
                }
            }
        let outcome = bootstrap.connect(to: address).flatMap { channel -> EventLoopFuture<PlainOutcome> in
            let tcp = start.duration(to: clock.now)
            let sent = clock.now
            let deadline = channel.eventLoop.scheduleTask(in: .nanoseconds(timeout.nanoseconds)) { answer.fail(Failure.timeout) }
            channel.write(HTTPClientRequestPart.head(head), promise: nil)
            channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
            return answer.futureResult
                .map { head, body in
                    PlainOutcome.connected(tcp: tcp, answer: .success(Response(status: Int(head.status.code), headers: head.headers, body: body,
                                                                              elapsed: sent.duration(to: clock.now))))
                }
                .recover { PlainOutcome.connected(tcp: tcp, answer: .failure($0)) }
                .always { _ in
                    deadline.cancel()
                    channel.close(promise: nil)
                }
        }.recover { error in
            PlainOutcome.notConnected(ConnectionProber.tcpFailure(error, after: start.duration(to: clock.now)))
        }
        // A connection that failed never reached the collector: its promise is completed here
        // (a no-op when the answer did), as a pending promise is a crash in debug builds.
        outcome.whenComplete { _ in answer.fail(Failure.closedEarly) }
        do {
            return try await outcome.get()
        } catch {
            return .notConnected(.failed(String(describing: error)))  // not reached: both failures are recovered
        }
    }
}

/// Collects one response (head and body, up to a limit) and completes the promise.
private final class ResponseCollector: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPClientResponsePart
    private let promise: EventLoopPromise<(HTTPResponseHead, ByteBuffer)>
    private let maxBytes: Int
    private var head: HTTPResponseHead?
    private var body = ByteBuffer()

    init(promise: EventLoopPromise<(HTTPResponseHead, ByteBuffer)>, maxBytes: Int) {
        self.promise = promise
        self.maxBytes = maxBytes
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let responseHead):
            head = responseHead
        case .body(var part):
            if body.readableBytes + part.readableBytes > maxBytes {
                promise.fail(ChannelHTTPExchange.Failure.tooLarge)
                context.close(promise: nil)
                return
            }
            body.writeBuffer(&part)
        case .end:
            if let head { promise.succeed((head, body)) } else { promise.fail(ChannelHTTPExchange.Failure.closedEarly) }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        promise.fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        promise.fail(ChannelHTTPExchange.Failure.closedEarly)  // no-op once completed
        context.fireChannelInactive()
    }
}
