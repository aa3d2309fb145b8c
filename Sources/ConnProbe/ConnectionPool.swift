import ConnCore
import NIOCore
import Synchronization

/// Idle kept-alive plain-http connections of one run, by origin, as curl keeps them: a run
/// that probes 500 URLs on one server opens about as many connections as it probes at once,
/// not 500. Each target's request still goes out and its answer is still judged on its own;
/// only the TCP rung is shared (reported as a reused connection). The run closes what is left
/// (`closeAll`), so nothing outlives it: a monitor's next look connects afresh.
final class ConnectionPool: Sendable {
    private let idle = Mutex<[String: [ChannelHTTPExchange.Connection]]>([:])
    private let closed = Mutex(false)

    /// The key of an origin: the URL's host (the Host header the requests carry), the address
    /// connected to, and the port.
    static func key(host: String, address: SocketAddress) -> String {
        "\(host)|\(address.ipAddress ?? "?")|\(address.port ?? 0)"
    }

    /// An idle connection to the origin, if the run has one.
    func take(_ key: String) -> ChannelHTTPExchange.Connection? {
        idle.withLock { $0[key]?.popLast() }
    }

    /// Keeps a connection whose answer has ended for the next request to the origin; closes it
    /// instead once the run is over. Call on the channel's event loop.
    func keep(_ connection: ChannelHTTPExchange.Connection, for key: String) {
        let accepted = closed.withLock { closed in
            guard !closed else { return false }
            idle.withLock { $0[key, default: []].append(connection) }
            return true
        }
        if !accepted { connection.channel.close(promise: nil) }
    }

    /// Closes every idle connection; later `keep`s close theirs.
    func closeAll() async {
        let all = closed.withLock { closed in
            closed = true
            return idle.withLock { idle in
                defer { idle = [:] }
                return idle.values.flatMap { $0 }
            }
        }
        // All at once, and waited for together: one hand-off, not one per connection.
        guard let loop = all.first?.channel.eventLoop else { return }
        let closed = all.map { connection in
            let promise = connection.channel.eventLoop.makePromise(of: Void.self)
            connection.channel.close(promise: promise)
            return promise.futureResult
        }
        try? await EventLoopFuture.andAllComplete(closed, on: loop).get()
    }
}
