import ConnCore
import Foundation

extension ConnConfiguration {
    /// What an auth pause belongs to: the server's token, and the credentials of the proxy that
    /// carries the server's messages. A 401 pauses the queue until the token changes, a proxy's
    /// 407 until the proxy's credentials do: either change lifts the pause (its HMAC fingerprint
    /// no longer matches). Without proxy credentials it is the token alone, as pauses stored
    /// before proxies were counted.
    public var outboxPauseIdentity: String? {
        guard let messages = backEnd?.url(for: .messages),
            let proxy = try? proxy.decision(for: messages).server, let user = proxy.user
        else { return token }
        return (token ?? "") + "\u{0}proxy\u{0}\(proxy.display)\u{0}\(user):\(proxy.password ?? "")"
    }
}
