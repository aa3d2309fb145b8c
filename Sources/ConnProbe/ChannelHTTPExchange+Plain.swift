import ConnCore
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// A plain-http target's TCP and HTTP rungs in one pass: the connection is opened, or taken
/// from the run's pool, and asked in the same hand-off to the event loop.
extension ChannelHTTPExchange {
    /// What a plain-http target's TCP and HTTP rungs found.
    enum PlainOutcome {
        /// The connection failed: the TCP rung's verdict.
        case notConnected(ConnectionProber.TCPResult)
        /// Connected after `tcp` (zero for a kept-alive connection of the run, `reused`); then
        /// the answer, or why there was none.
        case connected(tcp: Duration, reused: Bool, answer: Result<Response, any Error>)
    }

    /// TCP and HTTP for a plain-http target, end to end on the channel's event loop: the
    /// handlers are in place before the connection completes, the request is written as it
    /// does, and the channel is closed (or, with a pool, kept for the origin's next target) as
    /// the answer ends. A target costs one hand-off between Swift concurrency and SwiftNIO
    /// instead of one per step; with 1,000 targets those hand-offs were the largest cost
    /// (issue 20).
    static func connectAndGet(_ url: URL, address: ResolvedAddress, headers extra: [(String, String)], maxBytes: Int,
                              timeout: Duration, pool: ConnectionPool?, egress: Egress = .any) async -> PlainOutcome {
        guard let socketAddress = address.socketAddress else { return .notConnected(.failed("bad address \(address.ip)")) }
        let head = requestHead(for: url, headers: extra, keepAlive: pool != nil)
        let key = ConnectionPool.key(host: url.host ?? "", address: socketAddress)
        if let pool, let reused = await reusing(pool, key: key, head: head, timeout: timeout) { return reused }
        // `any()`: the loop this task runs on, if it runs on one (EventLoopTaskExecutor): no hand-off.
        let eventLoop = MultiThreadedEventLoopGroup.singleton.any()
        let start = ContinuousClock.now
        let collector = ResponseCollector(maxBytes: maxBytes)
        let bootstrap = egress.boundToSource(ClientBootstrap(group: eventLoop))
            .connectTimeout(.nanoseconds(timeout.nanoseconds))
            .channelInitializer { channel in
                egress.prepare(channel).flatMapThrowing {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(collector)
                }
            }
        let outcome = bootstrap.connect(to: socketAddress).flatMap { channel -> EventLoopFuture<PlainOutcome> in
            send(head, on: Connection(channel: channel, collector: collector), timeout: timeout, tcp: start.duration(to: .now),
                 reused: false, pool: pool, key: key)
        }.recover { error in
            PlainOutcome.notConnected(ConnectionProber.tcpFailure(error, after: start.duration(to: .now)))
        }
        return await value(of: outcome)
    }

    /// The request on a kept-alive connection of the run to `key`, if there is one that still
    /// answers. One the server closed meanwhile gives no answer at all: that is not the target's
    /// verdict, so the next is tried, and then none (the caller connects anew).
    private static func reusing(_ pool: ConnectionPool, key: String, head: HTTPRequestHead, timeout: Duration) async -> PlainOutcome? {
        while let idle = pool.take(key) {
            let outcome = await value(of: idle.channel.eventLoop.flatSubmit {
                send(head, on: idle, timeout: timeout, tcp: .zero, reused: true, pool: pool, key: key)
            })
            if case .connected(_, _, .failure(Failure.closedEarly)) = outcome { continue }
            return outcome
        }
        return nil
    }

    /// A plain-http target with several addresses: a kept-alive connection of the run to one of
    /// them if there is one, else the addresses raced (`HappyEyeballs`) and the request sent on
    /// the connection that won. The attempts that failed, in the order they ended, and the
    /// address that answered with what it answered (`.connected`); nil when none connected.
    static func get(_ url: URL, addresses: [ResolvedAddress], headers extra: [(String, String)], maxBytes: Int, timeout: Duration,
                    pool: ConnectionPool?, egress: Egress = .any)
        async -> (failures: [(address: ResolvedAddress, result: ConnectionProber.TCPResult)], answered: (address: ResolvedAddress, outcome: PlainOutcome)?) {
        let head = requestHead(for: url, headers: extra, keepAlive: pool != nil)
        let key = { @Sendable (address: SocketAddress) in ConnectionPool.key(host: url.host ?? "", address: address) }
        if let pool {
            for address in addresses {
                guard let socketAddress = address.socketAddress,
                    let reused = await reusing(pool, key: key(socketAddress), head: head, timeout: timeout)
                else { continue }
                return ([], (address, reused))
            }
        }
        let race = await HappyEyeballs.race(addresses) { address in
            await ConnectionProber.connect(to: address, timeout: timeout, egress: egress)
        }
        guard let winner = race.winner, let socketAddress = winner.address.socketAddress else { return (race.failures, nil) }
        let channel = winner.channel
        let collector = ResponseCollector(maxBytes: maxBytes)
        let outcome = await value(of: channel.eventLoop.flatSubmit {
            do {
                try channel.pipeline.syncOperations.addHTTPClientHandlers()
                try channel.pipeline.syncOperations.addHandler(collector)
            } catch {
                channel.close(promise: nil)
                return channel.eventLoop.makeSucceededFuture(PlainOutcome.connected(tcp: winner.elapsed, reused: false, answer: .failure(error)))
            }
            return send(head, on: Connection(channel: channel, collector: collector), timeout: timeout, tcp: winner.elapsed,
                        reused: false, pool: pool, key: key(socketAddress))
        })
        return (race.failures, (winner.address, outcome))
    }

    /// One request and its answer (see `request`); then the connection goes back to the pool
    /// when it can carry another request, else it is closed. On the channel's event loop.
    private static func send(_ head: HTTPRequestHead, on connection: Connection, timeout: Duration, tcp: Duration, reused: Bool,
                             pool: ConnectionPool?, key: String) -> EventLoopFuture<PlainOutcome> {
        let channel = connection.channel
        return request(head, on: connection, timeout: timeout, from: .now)
            .always { result in
                if let pool, case .success = result, connection.collector.isReusable, channel.isActive {
                    pool.keep(connection, for: key)
                } else {
                    channel.close(promise: nil)
                }
            }
            .map { PlainOutcome.connected(tcp: tcp, reused: reused, answer: .success($0)) }
            .recover { PlainOutcome.connected(tcp: tcp, reused: reused, answer: .failure($0)) }
    }

    /// The outcome of a future whose failures are all recovered.
    private static func value(of outcome: EventLoopFuture<PlainOutcome>) async -> PlainOutcome {
        do {
            return try await outcome.get()
        } catch {
            return .notConnected(.failed(String(describing: error)))  // not reached: every failure is recovered
        }
    }
}

