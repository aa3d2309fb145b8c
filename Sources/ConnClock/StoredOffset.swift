import ConnCore
import Foundation

/// The last measured offset, kept in the local database so `--convert` works offline; written by
/// `conn clock-offset` and by the agent from its link's ping/pongs.
public struct StoredOffset: Codable, Equatable, Sendable {
    public var offsetMs: Double
    public var uncertaintyMs: Double
    public var method: String
    public var source: String
    public var measuredAt: Date

    public init(offsetMs: Double, uncertaintyMs: Double, method: String, source: String, measuredAt: Date) {
        (self.offsetMs, self.uncertaintyMs, self.method, self.source, self.measuredAt) = (offsetMs, uncertaintyMs, method, source, measuredAt)
    }

    /// The latest measurement against anything (what older versions kept alone).
    static let metaKey = "clockOffset.last"

    /// Whose clock it is: the origin of the source (`https://host:443`, the same for the server's
    /// /time, /health and ws), or the source itself (`ntp://host:123`).
    public var owner: String { Self.owner(of: source) }

    static func owner(of source: String) -> String {
        URL(string: source).flatMap(Origin.init)?.description ?? source
    }

    static func key(for owner: String) -> String { "clockOffset.for." + owner }

    /// The latest measurement of any clock (the one older versions kept).
    public static func load(from database: LocalDatabase) throws -> StoredOffset? {
        try decode(database.metaValue(metaKey))
    }

    /// The latest measurement of `server`'s clock (its origin): one server's offset is never
    /// used for another's dates. A measurement an older version kept counts when it was of that
    /// server.
    public static func load(from database: LocalDatabase, for server: URL) throws -> StoredOffset? {
        guard let origin = Origin(server)?.description else { return nil }
        if let stored = try decode(database.metaValue(key(for: origin))) { return stored }
        return try load(from: database).flatMap { $0.owner == origin ? $0 : nil }
    }

    private static func decode(_ text: String?) throws -> StoredOffset? {
        guard let text else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return try? decoder.decode(StoredOffset.self, from: Data(text.utf8))
    }

    /// Kept as its owner's latest, and as the latest of all.
    public func save(to database: LocalDatabase) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        let text = String(decoding: try encoder.encode(self), as: UTF8.self)
        try database.setMetaValue(Self.key(for: owner), text)
        try database.setMetaValue(Self.metaKey, text)
    }
}
