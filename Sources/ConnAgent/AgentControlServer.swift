import ConnCore
import Foundation
import NIOCore
import NIOExtras
import NIOPosix

/// The agent's control socket: each connection sends one JSON line (`{"request":"status"}`,
/// `{"request":"wake","ids":[…]}`) and gets one back. The socket lives in the agent's private directory
/// (0700), so only its user can connect.
struct AgentControlServer: Sendable {
    private let channel: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>
    private let task: Task<Void, Never>
    private let connections: AcceptedConnections
    /// The longest request line read.
    static let maximumLineBytes = 64 * 1024

    /// Listens at `place.socketPath` (a socket left there by a dead agent is removed: the caller
    /// holds the lock, so no live agent owns it); `answer` turns a request into the reply line.
    static func start(at place: AgentPlace, answer: @escaping @Sendable (AgentClient.Request?) async -> String) async throws -> AgentControlServer {
        unlink(place.socketPath)
        let connections = AcceptedConnections()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(unixDomainSocketPath: place.socketPath, cleanupExistingSocketFile: true) { child in
                child.eventLoop.makeCompletedFuture {
                    connections.admit(child)
                    // A request is one short line: a client that sends 64 KiB without a newline is cut off
                    // (the connection closed) instead of growing the agent's memory.
                    try child.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineBasedFrameDecoder(), maximumBufferSize: Self.maximumLineBytes))
                    try child.pipeline.syncOperations.addHandler(ClosingOnError())
                    return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: child)
                }
            }
        chmod(place.socketPath, 0o600)
        let task = Task<Void, Never> {
            _ = try? await channel.executeThenClose { connections in
                try await withThrowingDiscardingTaskGroup { group in
                    for try await connection in connections {
                        group.addTask {
                            try? await connection.executeThenClose { inbound, _ in
                                for try await line in inbound {
                                    let request = Self.request(from: line)
                                    // Written and flushed to the socket before the close: the
                                    // writer's `write` returns once the line is queued, and a close
                                    // then drops what did not fit the socket's buffer (~208 KiB) —
                                    // a status of 250 targets or more came back cut.
                                    try await connection.channel.writeAndFlush(ByteBuffer(string: await answer(request) + "\n"))
                                    return
                                }
                            }
                        }
                    }
                }
            }
        }
        return AgentControlServer(channel: channel, task: task, connections: connections)
    }

    private init(channel: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>, task: Task<Void, Never>,
                 connections: AcceptedConnections) {
        self.channel = channel
        self.task = task
        self.connections = connections
    }

    /// `{"request":"status"}` → .status; anything unknown or malformed → nil (answered with an
    /// error).
    static func request(from line: ByteBuffer) -> AgentClient.Request? {
        AgentClient.Request(line: line.readableBytesView)
    }

    /// Stops listening; every connection accepted is taken to its end, none left for NIO to
    /// trap on (`AcceptedConnections`).
    func stop(at place: AgentPlace) async {
        await connections.stop(listening: channel.channel)
        unlink(place.socketPath)
    }
}

/// Closes a control connection at its first error (a line past the limit) on the event loop
/// itself: left to the task that serves it, a loaded agent went on reading a flood (8 MiB)
/// before that task got to the error.
private final class ClosingOnError: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
        context.fireErrorCaught(error)
    }
}
