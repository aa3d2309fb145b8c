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
        let channel: any Channel
        do {
            channel = try await egress.dial(bootstrap.channelInitializer { egress.prepare($0) }, host: proxy.host, port: proxy.port, timeout: timeout)
        } catch {
            // The proxy's failure, not the target's: the target was never asked.
            let why: String? = switch ConnectFailure(error) {
            case .refused: "refused the connection: nothing listens at its address"
            case .noRoute: "cannot be reached: there is no route to it"
            case .nameNotResolved: "cannot be reached: the name \(proxy.host) does not resolve"
            case nil: nil
            }
            guard let why else { throw error }
            throw ConnError(code: .proxyUnreachable, message: "the proxy \(proxy.display) \(why) (on the way to \(url.absoluteString))",
                            hint: "Check the proxy's address, or go without it: --proxy '' or --noproxy HOST.", exitStatus: .unavailable)
        }
        let remaining = max(.zero, timeout - start.duration(to: clock.now))
        switch await ProxyTunnel.open(on: channel, to: host, port: port, through: proxy, timeout: remaining) {
        case .open:
            return channel
        case .unresolved:
            try? await channel.close()
            throw ConnError.unavailable(.nxdomain, "the name \(host) does not resolve here (socks5:// resolves names locally; socks5h:// lets the proxy)")
        case .authRequired:
            try? await channel.close()
            throw ConnError(code: .proxyAuthRequired, message: "the proxy \(proxy.display) wants credentials to open \(url.absoluteString)"
                                + (proxy.user == nil ? "" : ", and refused these"),
                            exitStatus: .permission)
        case .refused(_, let statusLine):
            try? await channel.close()
            throw ConnError(code: .proxyRefused, message: "the proxy \(proxy.display) refused the tunnel to \(url.absoluteString): \(statusLine)",
                            exitStatus: .unavailable)
        case .failed(_, let why):
            try? await channel.close()
            throw ConnError(code: .proxyRefused, message: "the proxy \(proxy.display): \(why)", exitStatus: .unavailable)
        case .tlsFailed(_, let why):
            try? await channel.close()
            throw ConnError(code: .proxyUnreachable, message: "TLS to the proxy \(proxy.display) failed: \(why)", hint: ProxyTrust.hint,
                            exitStatus: .unavailable)
        case .timeout:
            try? await channel.close()
            throw TunnelTimeout()
        }
    }
}
