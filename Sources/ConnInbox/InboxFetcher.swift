import ConnCore
import Foundation
import Logging

/// One conditional fetch of the inbox into the cache: `conn inbox fetch` and the agent's sync.
/// The answer is read whole and checked before anything is stored, so a failed fetch (an error,
/// a bad answer, a full disk) leaves the cache as it was.
public struct InboxFetcher: Sendable {
    public struct Outcome: Sendable, Equatable {
        /// Where the inbox came from (after same-origin redirects).
        public var source: String
        public var notModified: Bool
        public var summary: InboxCache.StoreSummary
        public var elapsedMs: Double
    }

    let url: URL
    let cache: InboxCache

    public init(url: URL, database: LocalDatabase) {
        self.url = url
        self.cache = InboxCache(database: database)
    }

    /// Fetches over `transport`; `conditional`: send the cached ETag (an unchanged inbox costs
    /// one 304).
    public func fetch(over transport: HTTPTransport, conditional: Bool = true, logger: Logger) async throws -> Outcome {
        var headers = [("Accept", "application/json")]
        if conditional, let etag = cache.etag(for: url.absoluteString) { headers.append(("If-None-Match", etag)) }
        let clock = ContinuousClock()
        let start = clock.now
        let response = try await transport.send(HTTPExchangeRequest(url: url, headers: headers))
        let now = Date()
        // Where the inbox really came from: same-origin redirects are followed (others refused).
        let source = (response.url ?? url).absoluteString
        switch (HTTPStatusClass(response.status), response.status) {
        case (.notModified, _):
            try cache.touch(source: source, at: now)
            return Outcome(source: source, notModified: true, summary: .init(fetched: 0, new: 0, updated: 0, unchanged: 0),
                           elapsedMs: start.duration(to: clock.now).milliseconds)
        case (.success, 200):
            let readStart = clock.now
            let records = try InboxDocumentReader.read(response.body, source: source)
            let storeStart = clock.now
            logger.debug("read \(records.count) records (\(response.body.count) bytes) in \(TimeFormatting.duration(readStart.duration(to: storeStart)))")
            let summary = try cache.store(records, etag: response.header("ETag"), requested: url.absoluteString, source: source, at: now)
            logger.debug("stored them in \(TimeFormatting.duration(storeStart.duration(to: clock.now)))")
            return Outcome(source: source, notModified: false, summary: summary, elapsedMs: start.duration(to: clock.now).milliseconds)
        default:
            throw ConnError.unexpectedStatus(response.status, from: url, expected: "the inbox; the cache was left as it was")
        }
    }
}
