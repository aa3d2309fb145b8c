import ConnClock
import ConnCore
import ConnProtocol
import Foundation
import Logging
import WSCore

/// The live link to the back end: a WebSocket to the `ws` resource, held open and reopened with
/// backoff, reporting its `ConnectionState` (see `states`). A server that dies is noticed when
/// its socket closes.
public struct BackEndLink: Sendable {
    public let url: URL
    let credentials: Credentials?
    /// How the server's certificate is checked (`insecure`, `caCert`, as for HTTP).
    let trust: ServerTrust
    let pingInterval: Duration
    /// How long connecting, TLS and the upgrade may take together.
    let handshakeTimeout: Duration
    let logger: Logger
    /// The proxy the link tunnels through (CONNECT, or SOCKS5's), if the settings give one for its URL.
    var proxy: ProxyServer?
    /// The way out the link's connection is bound to (`--interface`, `-4`, `-6`).
    var egress = Egress.any
    /// Called with each ping/pong's estimate of the clock offset, read as the json method reads
    /// its samples (`ClockFilter`, whole-millisecond stamps), for a caller that keeps it (the
    /// agent stores it for `clock-offset --convert`; both serve it as a metric).
    public var onSample: (@Sendable (ClockEstimate) -> Void)?

    public init(url: URL, credentials: Credentials?, trust: ServerTrust = .system, pingInterval: Duration,
                handshakeTimeout: Duration = .seconds(10), logger: Logger) {
        self.url = url
        self.credentials = credentials
        self.trust = trust
        self.pingInterval = pingInterval
        self.handshakeTimeout = handshakeTimeout
        self.logger = logger
    }

    /// The link to the configured server's `ws` resource, with its token, pinging every 10 s;
    /// opening it takes at most the configured timeout.
    public init(_ backEnd: BackEndEndpoint, configuration: ConnConfiguration, logger: Logger) {
        self.init(url: backEnd.url(for: .ws), credentials: configuration.credentials, trust: configuration.serverTrust,
                  pingInterval: .seconds(10), handshakeTimeout: configuration.timeout, logger: logger)
        // A proxy setting that cannot be read is refused by the looks before a link starts.
        proxy = (try? configuration.proxy.decision(for: url))?.server
        egress = configuration.egress
    }

    /// The link's states, as seed 002's ConnectionState moves: when `initializing` (the link was
    /// just enabled), `disconnected(isInitializing: true)` until the first attempt concludes;
    /// `connected(offset)` once a ping/pong gave the offset; `disconnected(isInitializing:
    /// false)` as soon as an attempt fails or the connection drops, and through the retries
    /// that follow. The last offset, starting from `lastOffset`, is kept through all of it.
    public func states(lastOffset: Int? = nil, initializing: Bool = true) -> AsyncStream<ConnectionState> {
        AsyncStream { continuation in
            let task = Task {
                var lastOffset = lastOffset
                // Reconnect after 250 ms, doubling up to 1 s; from 250 ms again after a connection.
                // The link is what notices a server that comes back (it then asks for a look),
                // so its cap is how late that can be: a queued message goes out within about a
                // second of the server's return. Each wait is drawn from the upper half of the ceiling, so
                // a fleet that lost the server at the same moment does not knock in step.
                // A refused connection is retried sooner (`RefusedRetry`).
                let backoff = Backoff(base: .milliseconds(250), cap: .seconds(1))
                var failedAttempts = 0
                var refused = RefusedRetry()
                if initializing { continuation.yield(.disconnected(backEndTimeOffsetMs: lastOffset, isInitializing: true)) }
                while !Task.isCancelled {
                    let attempt = await holdOpen { offset in
                        continuation.yield(.connected(backEndTimeOffsetMs: offset))
                    }
                    if let seen = attempt.offset { lastOffset = seen }
                    continuation.yield(.disconnected(backEndTimeOffsetMs: lastOffset, isInitializing: false))
                    failedAttempts = attempt.offset == nil ? failedAttempts + 1 : 1
                    var ceiling = backoff.ceiling(afterAttempt: failedAttempts)
                    if let sooner = refused.ceiling(afterRefusal: attempt.refused, now: .now) { ceiling = min(ceiling, sooner) }
                    try? await Task.sleep(for: .milliseconds(Int64(ceiling.seconds * Double.random(in: 0.5...1) * 1000)))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Pings right after the connection opens, before settling to one per `pingInterval`: the
    /// filter has a few samples to choose from at once (the first, on a new connection, is often
    /// the slowest).
    static let openingPings = 4
    static let openingSpacing: Duration = .milliseconds(100)
    /// How many of the latest samples the offset is filtered over (NTP's clock filter keeps 8).
    static let window = 8

    /// How one connection attempt ended.
    struct AttemptEnd {
        /// The last offset measured; nil if the link never came up.
        var offset: Int?
        /// The server's host refused the connection (nothing listens on its port).
        var refused = false
    }

    /// One connection, until it closes. The offset is `ClockFilter`'s over the latest samples,
    /// as `clock-offset --method ws` computes it, not one raw sample per pong.
    func holdOpen(_ update: @escaping @Sendable (Int) -> Void) async -> AttemptEnd {
        let headers = credentials?.authorization(for: url).map { [("Authorization", $0)] } ?? []
        let last = LastOffset()
        let outstanding = OutstandingPings()
        let samples = SampleWindow(size: Self.window)
        let pingInterval = self.pingInterval
        let onSample = self.onSample
        // Sub-millisecond local stamps, immune to a wall-clock step while connected.
        let clock = SampleClock()
        do {
            try await WebSocketConnector.connect(to: url, headers: headers, tls: try ClientTLS.configuration(trust),
                                                 timeout: handshakeTimeout, proxy: proxy, egress: egress, logger: logger) { inbound, outbound in
                let pinger = Task {
                    var sent = 0
                    while !Task.isCancelled {
                        let t1 = clock.nowMS()
                        // The wire carries whole milliseconds; the exact send time stays here.
                        let id = outstanding.sent(t1)
                        try await outbound.write(.text(#"{"type":"ping","t1":\#(id)}"#))
                        sent += 1
                        try await Task.sleep(for: sent < Self.openingPings ? Self.openingSpacing : pingInterval)
                    }
                }
                defer { pinger.cancel() }
                for try await message in inbound.messages(maxSize: 1 << 20) {
                    guard case .text(let text) = message,
                        let event = try? JSONDecoder().decode(WebSocketEvent.self, from: Data(text.utf8)),
                        case .pong(let id, let t2, let t3) = event,
                        // Only an answer to one of our own pings, with times that can be real.
                        WireTime.isPlausible(t2), WireTime.isPlausible(t3), let t1 = outstanding.answered(id)
                    else { continue }
                    let t4 = clock.nowMS()
                    guard let estimate = ClockFilter.estimate(samples.adding(ClockSample(t1: t1, t2: t2, t3: t3, t4: t4)), resolutionMS: 1),
                        estimate.offsetMS.isFinite, abs(estimate.offsetMS) < Double(Int32.max)
                    else { continue }
                    let offset = Int(estimate.offsetMS.rounded())
                    last.set(offset)
                    onSample?(estimate)  // first: who reports the new state finds its bound there
                    update(offset)
                }
            }
        } catch {
            logger.debug("link to \(url.absoluteString): \(error)")
            // Through a proxy a refusal is the proxy's own, not news of the server.
            if proxy == nil, ConnectFailure(error) == .refused { return AttemptEnd(offset: last.value, refused: true) }
        }
        return AttemptEnd(offset: last.value)
    }

}

/// The latest clock samples of one connection.
private final class SampleWindow: @unchecked Sendable {
    private let lock = NSLock()
    private let size: Int
    private var samples: [ClockSample] = []

    init(size: Int) { self.size = size }

    /// Adds a sample; the window after it.
    func adding(_ sample: ClockSample) -> [ClockSample] {
        lock.withLock {
            samples.append(sample)
            if samples.count > size { samples.removeFirst(samples.count - size) }
            return samples
        }
    }
}

/// The pings sent on one connection and not yet answered: a pong counts only once, and only for
/// a ping of ours (an unsolicited or replayed pong would fake the offset).
private final class OutstandingPings: @unchecked Sendable {
    private let lock = NSLock()
    /// Each ping's id on the wire (its whole-millisecond send time, made unique) and its exact
    /// send time.
    private var pings: [(id: Int64, sentMS: Double)] = []

    /// Records a ping sent at `sentMS`; the id to send with it.
    func sent(_ sentMS: Double) -> Int64 {
        lock.withLock {
            var id = Int64(sentMS)
            if let newest = pings.last?.id, id <= newest { id = newest + 1 }
            pings.append((id, sentMS))
            if pings.count > 16 { pings.removeFirst(pings.count - 16) }
            return id
        }
    }

    /// The exact send time of the ping `id`, if it is outstanding; it is no longer outstanding
    /// afterwards.
    func answered(_ id: Int64) -> Double? {
        lock.withLock {
            guard let index = pings.firstIndex(where: { $0.id == id }) else { return nil }
            return pings.remove(at: index).sentMS
        }
    }
}

/// The last offset seen on a connection, shared with its message loop.
private final class LastOffset: @unchecked Sendable {
    private let lock = NSLock()
    private var offset: Int?
    func set(_ value: Int) { lock.withLock { offset = value } }
    var value: Int? { lock.withLock { offset } }
}
