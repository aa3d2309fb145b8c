import ArgumentParser
import ConnCommandKit

/// How `conn get` weighs the network against its copy (the strategies of browsers' service
/// workers, Workbox's names).
public enum CacheStrategy: String, CaseIterable, Sendable, NamedValueArgument {
    /// The network within --timeout; the copy when it fails.
    case networkFirst = "network-first"
    /// A fresh copy without asking (--max-age, else the server's max-age); else network-first.
    case cacheFirst = "cache-first"
    /// The copy at once, then the network to refresh it for next time.
    case staleWhileRevalidate = "stale-while-revalidate"
    /// The copy or nothing; the network is never used (--offline).
    case cacheOnly = "cache-only"
}
