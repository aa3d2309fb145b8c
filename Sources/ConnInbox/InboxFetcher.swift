import ConnCore
import Foundation
import Logging

/// One conditional fetch of the inbox into the cache: `conn inbox fetch` and the agent's sync.
/// The answer is downloaded to a file, then read whole and checked before anything is stored,
/// so a failed fetch (an error, a bad answer, a full disk) leaves the cache as it was.
public struct InboxFetcher: Sendable {
    public struct Outcome: Sendable, Equatable {
        /// Where the inbox came from (after same-origin redirects).
        public var source: String
        public var notModified: Bool
        public var summary: InboxCache.StoreSummary
        public var elapsedMs: Double
    }

    /// Where a fetch is, for a progress line.
    public enum Progress: Sendable {
        case downloading(received: Int, expected: Int?, seconds: Double)
        case reading(bytes: Int)
        case storing(records: Int)

        /// Whether this begins a phase (drawn at once, not held back by the redraw limit).
        public var isPhaseStart: Bool {
            if case .downloading = self { return false }
            return true
        }
    }

    let url: URL
    let cache: InboxCache

    public init(url: URL, database: LocalDatabase) {
        self.url = url
        self.cache = InboxCache(database: database)
    }

    /// Fetches over `transport`; `conditional`: send the cached ETag (an unchanged inbox costs
    /// one 304).
    public func fetch(over transport: HTTPTransport, conditional: Bool = true, logger: Logger,
                      progress: (@Sendable (Progress) -> Void)? = nil) async throws -> Outcome {
        var headers = [("Accept", "application/json")]
        if conditional, let etag = cache.etag(for: url.absoluteString) { headers.append(("If-None-Match", etag)) }
        let clock = ContinuousClock()
        let start = clock.now
        var request = HTTPExchangeRequest(url: url, headers: headers, maxResponseBytes: InboxJSONScanner.maximumDocumentBytes)
        // The body goes to a file beside the cache and is read through a memory map: a large
        // inbox is never held whole in memory.
        request.bodyFile = try ResponseBodyFile(in: (cache.database.path as NSString).deletingLastPathComponent)
        if let progress {
            request.onBodyProgress = { received, expected in
                progress(.downloading(received: received, expected: expected, seconds: start.duration(to: clock.now).seconds))
            }
        }
        let answer = try await download(request, over: transport, logger: logger, progress: progress, clock: clock)
        let now = Date()
        switch answer {
        case .notModified(let source):
            try cache.touch(requested: url.absoluteString, source: source, at: now)
            return Outcome(source: source, notModified: true, summary: .init(fetched: 0, new: 0, updated: 0, unchanged: 0),
                           elapsedMs: start.duration(to: clock.now).milliseconds)
        case .records(let document, let etag, let source):
            let storeStart = clock.now
            progress?(.storing(records: document.count))
            let summary = try cache.store(document, etag: etag, requested: url.absoluteString, source: source, at: now)
            logger.debug("stored them in \(TimeFormatting.duration(storeStart.duration(to: clock.now)))")
            return Outcome(source: source, notModified: false, summary: summary, elapsedMs: start.duration(to: clock.now).milliseconds)
        }
    }

    /// From this size on (about 150,000 generated messages) a fetch gives back its start-up pages.
    static let largeDocumentBytes = 64 << 20

    /// What the server answered, read.
    private enum Answer {
        case notModified(source: String)
        case records(InboxDocument, etag: String?, source: String)
    }

    /// Downloads and reads the inbox. The body (43 MB for 100,000 messages) goes to an unnamed
    /// file and is mapped, not read: the InboxDocument's records point into the map, whose pages
    /// are handed back as each pass over them goes on.
    private func download(_ request: HTTPExchangeRequest, over transport: HTTPTransport, logger: Logger,
                          progress: (@Sendable (Progress) -> Void)?, clock: ContinuousClock) async throws -> Answer {
        let response = try await transport.send(request)
        // Where the inbox really came from: same-origin redirects are followed (others refused).
        let source = (response.url ?? url).absoluteString
        switch (HTTPStatusClass(response.status), response.status) {
        case (.notModified, _):
            return .notModified(source: source)
        case (.success, 200):
            let readStart = clock.now
            let size = response.receivedBodyBytes ?? 0
            progress?(.reading(bytes: size))
            guard let file = request.bodyFile else { throw ConnError.internalError("the inbox was not downloaded to a file") }
            let document = try InboxDocumentReader.document(in: file, size: size, source: source)
            // A large inbox is merged in bounded memory; the pages of conn's own binary that
            // start-up and the download touched (~15 MB) are given back first, as a live
            // session does once it runs: the merge needs few of them.
            if size >= Self.largeDocumentBytes { StartupPages.release() }
            logger.debug("read \(document.count) records (\(size) bytes) in \(TimeFormatting.duration(readStart.duration(to: clock.now)))")
            return .records(document, etag: response.header("ETag"), source: source)
        default:
            throw ConnError.unexpectedStatus(response.status, from: url, expected: "the inbox; the cache was left as it was")
        }
    }
}
