import NIOCore
import NIOHTTP1

/// Collects one response at a time on a channel (head and body, up to a limit) and completes
/// the promise of the request in flight. Once a response has ended the channel is idle: it may
/// carry the next request (a kept-alive connection), unless something arrived in between or
/// the connection failed, which makes it unusable (`isReusable` false) and closes it — so a
/// server that answers twice cannot have its second answer taken for the next target's.
/// Touched only on the channel's event loop.
public final class ResponseCollector: ChannelInboundHandler, @unchecked Sendable {
    public typealias InboundIn = HTTPClientResponsePart
    private let maxBytes: Int
    private var promise: EventLoopPromise<(HTTPResponseHead, ByteBuffer)>?
    private var head: HTTPResponseHead?
    private var body = ByteBuffer()
    /// False once the connection failed, closed, or sent something no request asked for.
    public private(set) var isReusable = true
    /// The error that ended the connection before its first request (a TLS handshake that
    /// failed before the request was written, on a loaded machine): that request fails with it,
    /// not with a bare "closed", so the person reads why. A kept-alive connection that failed
    /// between requests still fails with `closedEarly`, which its pool takes as "try a new one".
    public private(set) var failureBeforeFirstRequest: (any Error)?
    private var carriedRequest = false
    /// When the answer's head arrived (the first byte, as curl's time_starttransfer counts it).
    public private(set) var headArrival: ContinuousClock.Instant?
    /// The status of the answer under way, once its head is in (on the event loop).
    public var headStatus: Int? { head.map { Int($0.status.code) } }
    /// Told the body's bytes received so far and the announced length, as they arrive (a
    /// progress line); set before the request, on the event loop.
    public var onBody: (@Sendable (_ received: Int, _ expected: Int?) -> Void)?
    private var expectedLength: Int?
    /// Takes the body's parts instead of memory (`HTTPExchangeRequest.bodyFile`); the answer's
    /// body is then empty. A part it cannot take fails the request. Set before the request.
    public var bodySink: ((ByteBuffer) throws -> Void)?
    private var sunkBytes = 0
    /// Answers whose head is all that matters (a proxy's 407 or error page): a connection that
    /// fails after such a head completes the request with the body so far. A proxy that answers
    /// 407 and closes with the request's body unread makes the kernel send a reset, and the page
    /// (ended by the close) would otherwise never end. Set before the request, on the event loop.
    public var headSuffices: (@Sendable (HTTPResponseHead) -> Bool)?

    public init(maxBytes: Int) {
        self.maxBytes = maxBytes
    }

    /// The next response completes this promise.
    public func expect(_ promise: EventLoopPromise<(HTTPResponseHead, ByteBuffer)>) {
        self.promise = promise
        carriedRequest = true
        head = nil
        headArrival = nil
        body = ByteBuffer()
        sunkBytes = 0
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard promise != nil else {
            isReusable = false
            context.close(promise: nil)
            return
        }
        switch unwrapInboundIn(data) {
        case .head(let responseHead):
            head = responseHead
            headArrival = .now
            expectedLength = responseHead.headers.first(name: "Content-Length").flatMap { Int($0) }
        case .body(var part):
            let received = body.readableBytes + sunkBytes
            if received + part.readableBytes > maxBytes {
                finish { $0.fail(ChannelHTTPExchange.Failure.tooLarge) }
                isReusable = false
                context.close(promise: nil)
                return
            }
            if let bodySink {
                do {
                    try bodySink(part)
                } catch {
                    finish { $0.fail(error) }
                    isReusable = false
                    context.close(promise: nil)
                    return
                }
                sunkBytes += part.readableBytes
            } else {
                body.writeBuffer(&part)
            }
            onBody?(received + part.readableBytes, expectedLength)
        case .end:
            if let head {
                let answer = (head, body)
                if !head.isKeepAlive { isReusable = false }
                finish { $0.succeed(answer) }
            } else {
                finish { $0.fail(ChannelHTTPExchange.Failure.closedEarly) }
            }
        }
    }

    public func errorCaught(context: ChannelHandlerContext, error: any Error) {
        isReusable = false
        if !carriedRequest, failureBeforeFirstRequest == nil { failureBeforeFirstRequest = error }
        if let head, headSuffices?(head) == true {
            let answer = (head, body)
            finish { $0.succeed(answer) }
        }
        finish { $0.fail(error) }
        context.close(promise: nil)
    }

    public func channelInactive(context: ChannelHandlerContext) {
        isReusable = false
        if let head, headSuffices?(head) == true {
            let answer = (head, body)
            finish { $0.succeed(answer) }
        }
        finish { $0.fail(ChannelHTTPExchange.Failure.closedEarly) }
        context.fireChannelInactive()
    }

    /// Completes the request in flight, if any, and leaves the channel idle.
    private func finish(_ complete: (EventLoopPromise<(HTTPResponseHead, ByteBuffer)>) -> Void) {
        guard let promise else { return }
        self.promise = nil
        complete(promise)
    }
}
