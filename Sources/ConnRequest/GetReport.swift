import ConnCommandKit
import ConnCore
import Foundation

/// `conn get --json`: the body with where it came from.
struct GetReport: Encodable, TextRenderable {
    let url: String
    let status: Int
    let fromCache: Bool
    /// The copy is current: fetched now, confirmed by the server (304), or fresh.
    let current: Bool
    /// Why the copy and not the network, when it is one.
    let reason: String?
    let fetchedAt: Date
    let ageSeconds: Double
    let etag: String?
    let lastModified: String?
    let contentType: String?
    let bodyBytes: Int
    /// The body as text (UTF-8), else base64; `json` as well when it is JSON.
    let body: String?
    let bodyBase64: String?
    let json: JSONValue?
    /// Whether the answer is kept for next time (no-store: never).
    let stored: Bool

    init(_ outcome: ResourceFetcher.Outcome, now: Date) {
        let resource = outcome.resource
        url = resource.url
        status = resource.status
        fromCache = outcome.fromCache
        current = outcome.current
        reason = outcome.reason
        fetchedAt = resource.fetchedAt
        ageSeconds = resource.age(at: now)
        etag = resource.etag
        lastModified = resource.lastModified
        contentType = resource.headers["Content-Type"]
        bodyBytes = resource.body.count
        let shown = BodyText(resource.body)
        body = shown.text
        bodyBase64 = shown.base64
        json = try? JSONDecoder().decode(JSONValue.self, from: resource.body)
        stored = outcome.stored
    }

    /// Text output is the body itself (`GetCommand` writes it); this is never called for it.
    func renderText(style: TextStyle) -> String { body ?? "" }
}

/// A JSON value parsed from a body, written back as it was.
enum JSONValue: Codable {
    case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
