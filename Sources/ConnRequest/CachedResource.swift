import ConnCore
import Foundation

/// One resource as `conn get` keeps it: the answer's body, the headers that say how it may be
/// reused (validators, freshness, type), and when it was fetched.
public struct CachedResource: Sendable, Equatable {
    public var url: String
    public var origin: String
    public var status: Int
    /// ETag, Last-Modified, Content-Type, Cache-Control: those the server sent.
    public var headers: [String: String]
    public var body: Data
    public var fetchedAt: Date
    public var lastUsedAt: Date

    /// The headers kept from an answer.
    static let keptHeaders = ["ETag", "Last-Modified", "Content-Type", "Cache-Control"]

    public var etag: String? { headers["ETag"] }
    public var lastModified: String? { headers["Last-Modified"] }

    /// How long the server said it stays fresh (Cache-Control max-age, in seconds), if it did;
    /// 0 for no-cache (every use asks the server first).
    public var serverMaxAge: Double? {
        let directives = CacheControl(headers["Cache-Control"])
        if directives.noCache { return 0 }
        return directives.maxAge
    }

    public func age(at now: Date) -> Double { max(0, now.timeIntervalSince(fetchedAt)) }

    /// Fresh for `maxAge` (the option), else for the server's max-age; without either, never.
    public func isFresh(at now: Date, maxAge: Double?) -> Bool {
        guard let limit = maxAge ?? serverMaxAge else { return false }
        return age(at: now) < limit
    }

}

/// The Cache-Control directives `conn get` honours (RFC 9111 5.2.2): no-store, no-cache, max-age.
struct CacheControl {
    var noStore = false
    var noCache = false
    var maxAge: Double?

    init(_ header: String?) {
        for part in (header ?? "").split(separator: ",") {
            let directive = part.trimmingBlanks().lowercased()
            if directive == "no-store" { noStore = true }
            if directive == "no-cache" || directive.hasPrefix("no-cache=") { noCache = true }
            if directive.hasPrefix("max-age="), let seconds = Double(directive.dropFirst(8).trimmingCharacters(in: CharacterSet(charactersIn: "\""))),
               seconds.isFinite, seconds >= 0 {
                maxAge = min(seconds, 3650 * 86_400)
            }
        }
    }
}
