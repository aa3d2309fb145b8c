import NIOCore

/// Reads the clock when the first bytes of an answer come out of the socket (after TLS, so a
/// session ticket or other TLS traffic cannot pass for the answer), before the HTTP decoder
/// parses them: t4 of a clock sample. Armed just before the request is written; touched only
/// on the channel's event loop.
final class ArrivalStamp: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    private let clock: SampleClock
    private var armed = false
    /// When the first bytes after `arm()` arrived, in ms on `clock`; nil until they do.
    private(set) var arrivalMS: Double?

    init(clock: SampleClock) {
        self.clock = clock
    }

    func arm() {
        armed = true
        arrivalMS = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if armed {
            arrivalMS = clock.nowMS()
            armed = false
        }
        context.fireChannelRead(data)
    }
}
