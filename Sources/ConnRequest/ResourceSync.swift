import ConnCore
import Foundation

/// Keeps chosen resources fresh in `conn get`'s copies (the agent's `sync:` URLs), so a script on
/// an offline machine reads data at most one sync interval old: each is asked for with its
/// validators, as `conn get` asks, and its copy replaced when it changed.
public struct ResourceSync: Sendable {
    public let urls: [URL]
    let cache: HTTPCache

    public init(urls: [URL], database: LocalDatabase, limit: Int) {
        self.urls = urls
        cache = HTTPCache(database: database, limit: limit)
    }

    /// Refreshes every URL once, one after the other.
    public func refresh(over transport: HTTPTransport) async -> ResourceSyncResult {
        var result = ResourceSyncResult(at: Date())
        let fetcher = ResourceFetcher(cache: cache, transport: transport, headers: [])
        for url in urls {
            if Task.isCancelled { break }
            do {
                let outcome = try await fetcher.networkFirst(url)
                if let reason = outcome.reason {
                    result.failed[url.absoluteString] = reason
                } else if outcome.fromCache {
                    result.current += 1
                } else {
                    result.refreshed += 1
                }
            } catch {
                result.failed[url.absoluteString] = (error as? ConnError)?.message ?? "\(error)"
            }
        }
        return result
    }
}

/// What one refresh of the `sync:` resources came to.
public struct ResourceSyncResult: Sendable, Equatable, Encodable {
    public var at: Date
    /// Fetched anew (a 2xx): their copies replaced.
    public var refreshed = 0
    /// Still current (a 304).
    public var current = 0
    /// Not refreshed, by URL, with why: the copy, if any, stays.
    public var failed: [String: String] = [:]

    public init(at: Date) { self.at = at }

    /// "2 refreshed, 1 current, 1 not refreshed (URL: why)".
    public var text: String {
        var parts = ["\(refreshed) refreshed", "\(current) current"]
        if let first = failed.sorted(by: { $0.key < $1.key }).first {
            parts.append("\(failed.count) not refreshed (\(first.key): \(first.value)\(failed.count > 1 ? "; …" : ""))")
        }
        return parts.joined(separator: ", ")
    }
}
