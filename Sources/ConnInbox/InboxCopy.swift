import ConnCommandKit
import ConnCore
import Foundation

/// The copy of the inbox that the offline commands (`list`, `thread`) read (`InboxCopyRule`):
/// the configured inbox's, never another server's. With no inbox configured, the latest
/// fetched (`list` says so).
struct InboxCopy {
    /// Why this copy is the one read: the same words in text and JSON.
    enum Reason: String, Encodable {
        /// The configured server's inbox (or the full `resources.inbox` URL).
        case configured
        /// Written by an older conn that did not record whose it is; shown until the next fetch.
        case unknownSource
        /// No inbox is configured: the copy fetched last.
        case latestFetched
    }

    let cache: InboxCache
    let source: InboxCache.Source
    let reason: Reason

    static func open(_ context: CommandContext, database: LocalDatabase) throws -> InboxCopy {
        let cache = InboxCache(database: database)
        let configured = context.configuration.url(for: .inbox)
        if let source = try cache.sourceToRead(configured: configured) {
            let reason: Reason = source.isUnknown ? .unknownSource : configured == nil ? .latestFetched : .configured
            if reason == .unknownSource {
                context.printer.warning("the cache was written by an older conn that did not record whose inbox it is; it is shown until the next `conn inbox fetch`")
            }
            return InboxCopy(cache: cache, source: source, reason: reason)
        }
        let others = try cache.sources()
        guard let configured, !others.isEmpty else {
            throw ConnError.unavailable(.emptyCache, "the inbox cache is empty", hint: "Run `conn inbox fetch` while the server is reachable.")
        }
        let now = Date()
        let listed = others.prefix(3).map { other in
            other.name + (other.fetchedAt.map { " (fetched \(TimeFormatting.ago(seconds: now.timeIntervalSince($0))))" } ?? "")
        }.joined(separator: ", ")
        throw ConnError.unavailable(
            .emptyCache, "no cached copy of the inbox of \(configured.absoluteString); the cache holds \(others.count == 1 ? "another server's" : "other servers'")",
            hint: "Run `conn inbox fetch` while the server is reachable, or give --server the server of a cached copy (\(listed)\(others.count > 3 ? ", …" : "")); `conn inbox sources` lists them.")
    }
}
