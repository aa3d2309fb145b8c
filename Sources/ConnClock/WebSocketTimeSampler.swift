import ConnCore
import ConnProtocol
import Foundation
import Logging
import Synchronization
import WSCore

/// Takes clock samples over the back end's WebSocket: application-level ping{t1} answered by
/// pong{t1,t2,t3}.
struct WebSocketTimeSampler {
    let url: URL
    let credentials: Credentials?
    let clock: SampleClock
    let timeout: Duration
    let trust: ServerTrust
    var egress = Egress.any
    /// The proxy the settings give for `url` (nil: direct).
    var proxy: ProxyServer?
    let logger: Logger

    func samples(_ count: Int, interval: Duration) async throws -> [ClockSample] {
        let collected = SampleBox()
        let headers = credentials?.authorization(for: url).map { [("Authorization", $0)] } ?? []
        let clock = self.clock
        let work = Task {
            try await WebSocketConnector.connect(to: url, headers: headers, tls: try ClientTLS.configuration(trust),
                                                 timeout: timeout, proxy: proxy, egress: egress, logger: logger) { inbound, outbound in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                func nextEvent() async throws -> WebSocketEvent? {
                    while let message = try await messages.next() {
                        if case .text(let text) = message, let event = try? JSONDecoder().decode(WebSocketEvent.self, from: Data(text.utf8)) {
                            return event
                        }
                    }
                    return nil
                }
                for index in 0...count {  // index 0 is the warm-up
                    if index > 1 { try await Task.sleep(for: interval) }
                    let t1 = clock.nowMS()
                    let id = Int64(t1)
                    try await outbound.write(.text(#"{"type":"ping","t1":\#(id)}"#))
                    while let event = try await nextEvent() {
                        if case .pong(let echoed, let t2, let t3) = event, echoed == id,
                            WireTime.isPlausible(t2), WireTime.isPlausible(t3) {
                            let t4 = clock.nowMS()
                            if index > 0 { collected.append(ClockSample(t1: t1, t2: t2, t3: t3, t4: t4)) }
                            break
                        }
                    }
                }
                try await outbound.close(.normalClosure, reason: nil)
            }
        }
        let deadline = Task {
            try await Task.sleep(for: timeout + interval * count)
            work.cancel()
        }
        defer { deadline.cancel() }
        do {
            _ = try await work.value
        } catch where collected.values.count == count {
            // Every sample was taken; the failure came with the closing (a TLS peer that closes
            // without close_notify is "uncleanShutdown"), which changes nothing about them.
            logger.debug("the WebSocket at \(url.absoluteString) closed with \(error) after the last sample")
        } catch WebSocketConnector.Failure.handshakeTimeout(let target, let limit) {
            throw ConnError.temporary(.timeout, "\(target) did not complete the WebSocket upgrade within \(TimeFormatting.duration(limit))",
                                      hint: HTTPTransport.timeoutHint)
        } catch {
            // A refused certificate says which check failed, as everywhere; the rest in plain words.
            let described = HTTPTransport.describe(error, url: url, timeout: timeout)
            if described.code == .tlsError {
                throw proxy == nil ? await HTTPTransport.explainingCertificate(described, url: url, trust: trust, timeout: timeout, egress: egress)
                    : described
            }
            throw ConnError.unavailable(.webSocketFailed, "the WebSocket at \(url.absoluteString) failed: \(HTTPTransport.plainWords(String(describing: error)))",
                                        hint: "Try --method json.")
        }
        let samples = collected.values
        guard samples.count == count else {
            throw ConnError.temporary(.webSocketIncomplete, "the WebSocket at \(url.absoluteString) answered \(samples.count) of \(count) pings")
        }
        return samples
    }
}

/// Samples gathered inside a closure that must be Sendable.
final class SampleBox: Sendable {
    private let storage = Mutex<[ClockSample]>([])
    func append(_ sample: ClockSample) { storage.withLock { $0.append(sample) } }
    var values: [ClockSample] { storage.withLock { $0 } }
}
