import Foundation

/// conn's redirect policy for one GET, wherever it is sent (the HTTP transport, the json clock
/// method's own connection): a 3xx with a `Location` on the same origin is followed, up to 5
/// times; one that leaves the origin is an error naming both ends, never followed.
public struct SameOriginRedirects: Sendable {
    /// The most redirects one request follows.
    public static let maximum = 5
    private let original: URL
    private var hops = 0

    public init(from original: URL) {
        self.original = original
    }

    /// The URL to ask next when the answer from `url` (`status`, `location`) is a redirect to
    /// follow; nil when it is not a redirect (304 is not). Throws for a redirect off the origin
    /// and for one too many.
    public mutating func next(status: Int, location: String?, from url: URL) throws -> URL? {
        guard (300...399).contains(status), status != 304, let location else { return nil }
        guard let next = URL(string: location, relativeTo: url)?.absoluteURL, let nextOrigin = Origin(next), nextOrigin == Origin(url) else {
            throw ConnError.unavailable(
                .redirected,
                "\(url.absoluteString) redirected (\(status)) to \(location.prefix(300)), which is not on \(Origin(url)?.description ?? "its origin"); conn follows redirects only within one origin",
                hint: "A captive portal or a login page answers like this. If the server really moved, configure its new address.")
        }
        hops += 1
        guard hops <= Self.maximum else {
            throw ConnError.unavailable(.tooManyRedirects, "\(original.absoluteString) redirected more than \(Self.maximum) times")
        }
        return next
    }
}
