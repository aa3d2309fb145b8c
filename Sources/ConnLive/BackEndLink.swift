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
    /// Accept certificates that do not verify (the configuration's `insecure`, as for HTTP).
    let insecure: Bool
    let pingInterval: Duration
    let logger: Logger
    /// Called with each ping/pong's estimate of the clock offset, read as the json method reads
    /// its samples (`ClockFilter`, whole-millisecond stamps), for a caller that keeps it (the
    /// agent stores it for `clock-offset --convert`; both serve it as a metric).
    public var onSample: (@Sendable (ClockEstimate) -> Void)?

    public init(url: URL, credentials: Credentials?, insecure: Bool = false, pingInterval: Duration, logger: Logger) {
        self.url = url
        self.credentials = credentials
        self.insecure = insecure
        self.pingInterval = pingInterval
        self.logger = logger
    }

    /// The link to the configured server's `ws` resource, with its token, pinging every 10 s.
    public init(_ backEnd: BackEndEndpoint, configuration: ConnConfiguration, logger: Logger) {
        self.init(url: backEnd.url(for: .ws), credentials: configuration.credentials, insecure: configuration.insecure,
                  pingInterval: .seconds(10), logger: logger)
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
                let backoff = Backoff(base: .milliseconds(250), cap: .seconds(1))
                var failedAttempts = 0
                if initializing { continuation.yield(.disconnected(backEndTimeOffsetMs: lastOffset, isInitializing: true)) }
                while !Task.isCancelled {
                    let seen = await holdOpen { offset in
                        continuation.yield(.connected(backEndTimeOffsetMs: offset))
                    }
                    if let seen { lastOffset = seen }
                    continuation.yield(.disconnected(backEndTimeOffsetMs: lastOffset, isInitializing: false))
                    failedAttempts = seen == nil ? failedAttempts + 1 : 1
                    let ceiling = backoff.ceiling(afterAttempt: failedAttempts).seconds
                    try? await Task.sleep(for: .milliseconds(Int64(ceiling * Double.random(in: 0.5...1) * 1000)))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// One connection, until it closes. Returns the last offset measured, nil if it never came up.
    private func holdOpen(_ update: @escaping @Sendable (Int) -> Void) async -> Int? {
        let headers = credentials?.authorization(for: url).map { [("Authorization", $0)] } ?? []
        let last = LastOffset()
        let outstanding = OutstandingPings()
        let pingInterval = self.pingInterval
        let onSample = self.onSample
        do {
            try await WebSocketConnector.connect(to: url, headers: headers, tls: ClientTLS.configuration(insecure: insecure),
                                                 logger: logger) { inbound, outbound in
                let pinger = Task {
                    while !Task.isCancelled {
                        let t1 = Self.nowMS()
                        outstanding.sent(t1)
                        try await outbound.write(.text(#"{"type":"ping","t1":\#(t1)}"#))
                        try await Task.sleep(for: pingInterval)
                    }
                }
                defer { pinger.cancel() }
                for try await message in inbound.messages(maxSize: 1 << 20) {
                    guard case .text(let text) = message,
                        let event = try? JSONDecoder().decode(WebSocketEvent.self, from: Data(text.utf8)),
                        case .pong(let t1, let t2, let t3) = event,
                        // Only an answer to one of our own pings, with times that can be real.
                        WireTime.isPlausible(t2), WireTime.isPlausible(t3), outstanding.answered(t1)
                    else { continue }
                    let t4 = Self.nowMS()
                    // NTP's offset: ((t2 - t1) + (t3 - t4)) / 2; every term is within 0…year 9999.
                    let exact = ((t2 - Double(t1)) + (t3 - Double(t4))) / 2
                    let offset = Int(exact)
                    last.set(offset)
                    update(offset)
                    let sample = ClockSample(t1: Double(t1), t2: t2, t3: t3, t4: Double(t4))
                    if let onSample, let estimate = ClockFilter.estimate([sample], resolutionMS: 1) { onSample(estimate) }
                }
            }
        } catch {
            logger.debug("link to \(url.absoluteString): \(error)")
        }
        return last.value
    }

    static func nowMS() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }
}

/// The pings sent on one connection and not yet answered: a pong counts only once, and only for
/// a ping of ours (an unsolicited or replayed pong would fake the offset).
private final class OutstandingPings: @unchecked Sendable {
    private let lock = NSLock()
    private var sentTimes: [Int64] = []

    func sent(_ t1: Int64) {
        lock.withLock {
            sentTimes.append(t1)
            if sentTimes.count > 16 { sentTimes.removeFirst(sentTimes.count - 16) }
        }
    }

    /// Whether `t1` is an outstanding ping; it is no longer outstanding afterwards.
    func answered(_ t1: Int64) -> Bool {
        lock.withLock {
            guard let index = sentTimes.firstIndex(of: t1) else { return false }
            sentTimes.remove(at: index)
            return true
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
