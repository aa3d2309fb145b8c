import ConnProtocol
import Foundation
import Logging
import WSCore

/// The open WebSocket connections, so new mail can be pushed to every client.
actor WebSocketHub {
    private var connections: [UUID: WebSocketOutboundWriter] = [:]

    func add(_ id: UUID, _ writer: WebSocketOutboundWriter) { connections[id] = writer }
    func remove(_ id: UUID) { connections[id] = nil }
    var count: Int { connections.count }

    func broadcast(_ event: WebSocketEvent) async {
        guard let text = try? String(decoding: JSONResponse.encoder.encode(event), as: UTF8.self) else { return }
        for writer in connections.values {
            try? await writer.write(.text(text))  // a closing connection is removed by its own handler
        }
    }
}

/// One WebSocket connection: hello with the server time, then answer pings with timestamps.
struct WebSocketSession {
    let hub: WebSocketHub
    let clock: ServerClock
    let logger: Logger

    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        let id = UUID()
        await hub.add(id, outbound)
        defer { Task { await hub.remove(id) } }
        try await send(.hello(serverTime: clock.nowMS()), on: outbound)
        for try await message in inbound.messages(maxSize: 64 * 1024) {
            let received = clock.nowPreciseMS()
            guard case .text(let text) = message,
                let event = try? JSONDecoder().decode(WebSocketEvent.self, from: Data(text.utf8))
            else {
                logger.debug("ignoring a WebSocket message that is not a known event")
                continue
            }
            if case .ping(let t1) = event {
                try await send(.pong(t1: t1, t2: received, t3: clock.nowPreciseMS()), on: outbound)
            }
        }
        await hub.remove(id)
    }

    private func send(_ event: WebSocketEvent, on outbound: WebSocketOutboundWriter) async throws {
        try await outbound.write(.text(String(decoding: try JSONResponse.encoder.encode(event), as: UTF8.self)))
    }
}
