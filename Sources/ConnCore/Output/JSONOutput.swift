import Foundation

/// The JSON conventions of conn's output: camelCase keys as declared, sorted for stable diffs,
/// ISO-8601 UTC timestamps with milliseconds, absent values as `null` (never a missing key),
/// and a `schemaVersion` on every top-level object.
public enum JSONOutput {
    /// The version of a payload that does not declare its own (`SchemaVersioned`). A payload's
    /// version is bumped only when a key is removed, renamed or changes meaning; adding keys does
    /// not bump it.
    public static let schemaVersion = 1

    /// The schema version written with `payload`.
    public static func schemaVersion<Payload>(of payload: Payload.Type) -> Int {
        (payload as? any SchemaVersioned.Type)?.schemaVersion ?? schemaVersion
    }

    public static func encoder(pretty: Bool = false) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(timestamp(date))
        }
        return encoder
    }

    /// Reads an ISO 8601 time, with or without fractional seconds (what `timestamp` writes, and
    /// what servers send); nil when `text` is not one.
    public static func date(fromTimestamp text: String) -> Date? {
        (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))) ?? (try? Date(text, strategy: Date.ISO8601FormatStyle()))
    }

    /// `2026-11-22T20:01:02.345Z`, to the nearest millisecond. The milliseconds are written from
    /// integers: a fractional second in binary (…311.432 is …311.43199…) came out of the
    /// formatter truncated, one millisecond short.
    public static func timestamp(_ date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        guard milliseconds.magnitude < 1e15 else {  // beyond year 33658: no exact integer split needed
            return date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt))
        }
        let total = Int64(milliseconds)
        let seconds = total >= 0 ? total / 1000 : (total - 999) / 1000
        let fraction = total - seconds * 1000
        let whole = Date(timeIntervalSince1970: Double(seconds)).formatted(Date.ISO8601FormatStyle(timeZone: .gmt))
        return String(whole.dropLast()) + "." + String(fraction + 1000).dropFirst() + "Z"
    }

    /// A decoder for what `encoder` wrote: timestamps read back with `date(_:)`.
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = date(text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a timestamp: \(text)"))
            }
            return date
        }
        return decoder
    }

    /// Reads a timestamp as `timestamp(_:)` writes it (milliseconds optional); nil otherwise.
    public static func date(_ text: String?) -> Date? {
        guard let text else { return nil }
        return (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt).parse(text))
            ?? (try? Date.ISO8601FormatStyle(timeZone: .gmt).parse(text))
    }

    /// Encodes `payload` with `schemaVersion` added at its top level, as one line of text.
    public static func encode<Payload: Encodable>(_ payload: Payload, pretty: Bool = false) throws -> String {
        // Safe to show on a terminal: see `escapingTerminalControls`.
        escapingTerminalControls(try encoder(pretty: pretty).encode(Versioned(payload: payload)))
    }
}

/// A payload whose shape changed since version 1 of the output contract: it declares its own
/// `schemaVersion` (docs/json/README.md says what a version promises).
public protocol SchemaVersioned {
    static var schemaVersion: Int { get }
}

/// Adds `schemaVersion` beside the payload's own keys (not nested), so scripts read one object.
struct Versioned<Payload: Encodable>: Encodable {
    let payload: Payload

    private enum CodingKeys: String, CodingKey { case schemaVersion }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(JSONOutput.schemaVersion(of: Payload.self), forKey: .schemaVersion)
        // Every key there, null when absent (NullKeepingEncoder).
        try payload.encode(to: NullKeepingEncoder(base: encoder))
    }
}

/// The JSON form of an error, printed on stderr in JSON mode:
/// `{"error":{"code":…,"message":…,"hint":…,"exitCode":…},"schemaVersion":1}`.
public struct ErrorPayload: Encodable, Sendable {
    public struct Body: Encodable, Sendable {
        public var code: String
        public var message: String
        public var hint: String?
        public var exitCode: Int32
    }
    public var error: Body

    public init(_ error: ConnError) {
        self.error = Body(code: error.code.rawValue, message: error.message, hint: error.hint, exitCode: error.exitStatus.rawValue)
    }

    public init(code: String, message: String, exitCode: Int32) {
        self.error = Body(code: code, message: message, hint: nil, exitCode: exitCode)
    }
}
