import ConnCore
import Foundation

/// What `conn get` does for one URL: asks the network (with the copy's validators) or serves
/// the copy, as the strategy says, and keeps what the server allows to be kept.
struct ResourceFetcher {
    let cache: HTTPCache
    let transport: HTTPTransport
    /// The user's own headers, sent with every request.
    let headers: [(String, String)]

    /// What is printed, and where it came from.
    struct Outcome {
        var resource: CachedResource
        var fromCache: Bool
        /// Why the copy and not the network ("the server answered 503"), for stderr.
        var reason: String?
        /// The copy is current: the server said so (304), or it is fresh.
        var current: Bool
        /// Whether this answer is kept now (no-store is never kept).
        var stored: Bool
    }

    /// The copy alone (cache-only, cache-first's fresh copy, stale-while-revalidate's first
    /// answer); nil when there is none.
    func copy(of url: URL, now: Date) throws -> CachedResource? {
        guard let cached = try cache.resource(url.absoluteString) else { return nil }
        try cache.touch(cached.url, at: now)
        return cached
    }

    /// The network, with the copy's validators; the copy when the network fails or the server
    /// asks to try later. Throws when there is neither, or when the server's answer is final
    /// (401, 404: no copy stands in for those).
    func networkFirst(_ url: URL) async throws -> Outcome {
        let cached = try cache.resource(url.absoluteString)
        var request = headers
        if let etag = cached?.etag { request.append(("If-None-Match", etag)) }
        if let lastModified = cached?.lastModified { request.append(("If-Modified-Since", lastModified)) }
        let response: HTTPExchangeResponse
        do {
            response = try await transport.send(HTTPExchangeRequest(method: .GET, url: url, headers: request, maxResponseBytes: HTTPCache.maxResourceBytes))
        } catch let error as ConnError where error.exitStatus == .unavailable || error.exitStatus == .temporaryFailure {
            // No answer at all (refused, timed out, no route, no name, TLS): the copy stands in.
            guard let cached else { throw error }
            try cache.touch(cached.url, at: Date())
            return Outcome(resource: cached, fromCache: true, reason: error.message, current: false, stored: false)
        }
        let now = Date()
        switch response.status {
        case 200...299:
            let control = CacheControl(response.header("Cache-Control"))
            let resource = CachedResource(url: url.absoluteString, origin: Origin(url)?.description ?? url.absoluteString, status: response.status,
                                          headers: response.headers(named: CachedResource.keptHeaders), body: response.body, fetchedAt: now, lastUsedAt: now)
            if control.noStore {
                // Never kept, and an older copy no longer stands for it.
                if cached != nil { try cache.remove([resource.url]) }
                return Outcome(resource: resource, fromCache: false, reason: nil, current: true, stored: false)
            }
            try cache.store(resource)
            return Outcome(resource: resource, fromCache: false, reason: nil, current: true, stored: true)
        case 304 where cached != nil:
            try cache.revalidated(cached!.url, headers: response.headers(named: CachedResource.keptHeaders), at: now)
            let current = try cache.resource(url.absoluteString) ?? cached!
            return Outcome(resource: current, fromCache: true, reason: nil, current: true, stored: true)
        case 401, 403:
            throw ConnError.unexpectedStatus(response.status, from: url, expected: "the resource")
        case 408, 425, 429, 500...599:
            let said = "\(url.absoluteString) answered \(response.status)"
            guard let cached else { throw ConnError.unexpectedStatus(response.status, from: url, expected: "the resource") }
            try cache.touch(cached.url, at: now)
            return Outcome(resource: cached, fromCache: true, reason: said, current: false, stored: false)
        default:
            throw ConnError.unexpectedStatus(response.status, from: url, expected: "the resource")
        }
    }
}
