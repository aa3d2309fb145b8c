import ConnCore
import Foundation
import NIOCore
import NIOHTTP1

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

    static func get(_ url: URL, on channel: any Channel, headers extra: [(String, String)], maxBytes: Int, timeout: Duration) async throws -> Response {
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
