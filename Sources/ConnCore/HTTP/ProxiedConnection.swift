import Foundation
import NIOCore
import NIOPosix

/// A connection to a target through a proxy, for the clients that open their own channels (the
/// live link, clock-offset's json method): a connection to the proxy (TLS to it for https://),
/// then a CONNECT (http://, https://) or a SOCKS5 handshake (socks5://, socks5h://) to the target; the channel then carries the
/// target's bytes, and the caller adds TLS and HTTP inside it. The target's token travels
/// there, never to the proxy.
public enum ProxiedConnection {
    /// The proxy did not answer the tunnel's request in time.
    public struct TunnelTimeout: Error {}

    /// Opens the tunnel to `host`:`port` within `timeout` (which the caller's deadline already
    /// counts down); `url` names the target in errors.
    public static func open(through proxy: ProxyServer, to host: String, port: Int, url: URL, bootstrap: ClientBootstrap,
                            egress: Egress, timeout: Duration) async throws -> any Channel {
        let clock = ContinuousClock()
        let start = clock.now
        let channel = try await dial(proxy, for: url, named: nil, bootstrap: bootstrap, egress: egress, timeout: timeout)
        let remaining = max(.zero, timeout - start.duration(to: clock.now))
        let outcome = await ProxyTunnel.open(on: channel, to: host, port: port, through: proxy, timeout: remaining)
        guard let failure = failure(outcome, proxy: proxy, host: host, target: url.absoluteString) else { return channel }
        try? await channel.close()
        throw failure
    }

    /// A connection to the proxy itself; one that cannot be made is the proxy's failure, saying
    /// where the request was going (`named`: how messages call the proxy, its URL by default).
    public static func dial(_ proxy: ProxyServer, for url: URL, named: String?, bootstrap: ClientBootstrap, egress: Egress,
                            timeout: Duration) async throws -> any Channel {
        do {
            return try await egress.dial(bootstrap.channelInitializer { egress.prepare($0) }, host: proxy.host, port: proxy.port, timeout: timeout)
        } catch {
            guard let unreachable = unreachable(error, proxy: proxy, named: named) else { throw error }
            throw ConnError(code: unreachable.code, message: unreachable.message + " (on the way to \(url.absoluteString))", hint: unreachable.hint,
                            exitStatus: unreachable.exitStatus)
        }
    }

    /// A connection to the proxy that failed, as the proxy's failure (the target was never
    /// asked); nil for an error that is not a connect failure.
    /// `named`: how messages call the proxy ("the proxy URL (from SOURCE)"; its URL by default).
    public static func unreachable(_ error: any Error, proxy: ProxyServer, named: String? = nil) -> ConnError? {
        let name = named ?? "the proxy \(proxy.display)"
        let why: String? = switch ConnectFailure(error) {
        case .refused: "refused the connection: nothing listens at its address"
        case .noRoute: "cannot be reached: there is no route to it"
        case .nameNotResolved: "cannot be reached: the name \(proxy.host) does not resolve"
        case nil: nil
        }
        return why.map {
            ConnError(code: .proxyUnreachable, message: "\(name) \($0)",
                      hint: "Check the proxy's address, or go without it: --proxy '' or --noproxy HOST.", exitStatus: .unavailable)
        }
    }

    /// What a tunnel's outcome means for the caller: nil when it is open, else the error
    /// (`TunnelTimeout` for no answer in time). `target` names where the tunnel was to go.
    public static func failure(_ outcome: ProxyTunnel.Outcome, proxy: ProxyServer, host: String, target: String, named: String? = nil) -> (any Error)? {
        let name = named ?? "the proxy \(proxy.display)"
        switch outcome {
        case .open:
            return nil
        case .unresolved:
            return ConnError.unavailable(.nxdomain, "the name \(host) does not resolve here (socks5:// resolves names locally; socks5h:// lets the proxy)")
        case .authRequired:
            return ConnError(code: .proxyAuthRequired, message: "\(name) wants credentials to open \(target)"
                                 + (proxy.user == nil ? "" : ", and refused these"),
                             hint: proxy.user == nil ? "Put them in the proxy URL: \(proxy.scheme.rawValue)://USER:PASSWORD@HOST:PORT." : nil,
                             exitStatus: .permission)
        case .targetFailed(_, let answer):
            return answer.error(target: target, proxy: name)
        case .refused(_, let statusLine):
            return ConnError(code: .proxyRefused, message: "\(name) refused the tunnel to \(target): \(statusLine)", exitStatus: .unavailable)
        case .failed(_, let why):
            return ConnError(code: .proxyRefused, message: "\(name): \(why)", exitStatus: .unavailable)
        case .tlsFailed(_, let why):
            return ConnError(code: .proxyUnreachable, message: "TLS to \(name) failed: \(why)", hint: ProxyTrust.hint,
                             exitStatus: .unavailable)
        case .timeout:
            return TunnelTimeout()
        }
    }
}
