import Foundation

/// A value kept as JSON text in one database column (headers, a list of statuses): written
/// compactly, read back leniently — text that no longer decodes reads as nil, never a crash.
public enum StoredJSON {
    public static func text(_ value: some Encodable) -> String {
        String(decoding: (try? JSONEncoder().encode(value)) ?? Data("null".utf8), as: UTF8.self)
    }

    public static func value<Value: Decodable>(_ type: Value.Type, from text: String?) -> Value? {
        text.flatMap { try? JSONDecoder().decode(type, from: Data($0.utf8)) }
    }
}
