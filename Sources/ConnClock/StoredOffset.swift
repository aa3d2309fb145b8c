import ConnCore
import Foundation

/// The last measured offset, kept in the local database so `--convert` works offline.
struct StoredOffset: Codable, Equatable {
    var offsetMs: Double
    var uncertaintyMs: Double
    var method: String
    var source: String
    var measuredAt: Date

    static let metaKey = "clockOffset.last"

    static func load(from database: LocalDatabase) throws -> StoredOffset? {
        guard let text = try database.metaValue(metaKey) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return try? decoder.decode(StoredOffset.self, from: Data(text.utf8))
    }

    func save(to database: LocalDatabase) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        try database.setMetaValue(Self.metaKey, String(decoding: try encoder.encode(self), as: UTF8.self))
    }
}
