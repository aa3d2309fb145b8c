import ConnCore
import NIOCore
import NIOHTTP1

/// Closes a connection of the metrics listener that does not send a whole request (head and
/// body) in time: `firstRequest` from its accepting, `idle` from the end of each answer. Bytes
/// that trickle in do not move the deadline (slowloris), and a handshake never finished is cut
/// too (the handler is added with the connection, before TLS starts). It also tells
/// `AcceptedConnections` which connections have a request in hand.
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let limits: ListenerLimits
    private let connections: AcceptedConnections
    private var deadline: Scheduled<Void>?

    init(limits: ListenerLimits, connections: AcceptedConnections) {
        self.limits = limits
        self.connections = connections
    }

    func handlerAdded(context: ChannelHandlerContext) {
        arm(context, limits.firstRequest)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .end = unwrapInboundIn(data) {
            // A whole request: answering it is bounded by the probe's own ceiling.
            deadline?.cancel()
            deadline = nil
            connections.busy(context.channel)
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            arm(context, limits.idle)
            connections.waiting(context.channel)
        }
        context.write(data, promise: promise)
    }

    private func arm(_ context: ChannelHandlerContext, _ limit: Duration) {
        deadline?.cancel()
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: TimeAmount(limit)) { channel.close(promise: nil) }
    }
}
