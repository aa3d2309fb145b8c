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

    static let metaKey = "clockOffset.last"

    public static func load(from database: LocalDatabase) throws -> StoredOffset? {
        guard let text = try database.metaValue(metaKey) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return try? decoder.decode(StoredOffset.self, from: Data(text.utf8))
    }

    public func save(to database: LocalDatabase) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        try database.setMetaValue(Self.metaKey, String(decoding: try encoder.encode(self), as: UTF8.self))
    }
}
