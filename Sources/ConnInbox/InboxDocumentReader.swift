import ConnCore
import ConnProtocol
import Foundation

/// Reads an inbox document strictly enough to trust it and leniently where the schema allows:
/// every field of seed 003's schema is a string and none is declared required, so a missing
/// field reads as "" — except `uid`, without which a message cannot be kept. A wrong type, a
/// truncated body or an HTML page fails the whole fetch, naming the record and the field.
public enum InboxDocumentReader {
    static let fields = ["uid", "from", "to", "subject", "text", "responseToUid", "dateTime"]

    public struct Record: Sendable, Equatable {
        public var email: Email
        /// The record as received, byte for byte (unknown fields included): kept in the cache,
        /// and compared to tell an unchanged record from an updated one. The one exception: a
        /// record that spells a field's key with escapes is kept re-encoded (its fields only),
        /// because the cache reads fields with SQLite's json_extract, which would miss that key;
        /// likewise a record with a NUL (`\u0000`) in a field, kept with U+2400 (␀) in its place,
        /// because SQLite's text is read back as a C string and would end at the NUL.
        public var raw: String {
            didSet { rawHash = RecordHash.of(raw) }
        }
        /// RecordHash of `raw`.
        public private(set) var rawHash: Int64

        public init(email: Email, raw: String) {
            self.email = email
            self.raw = raw
            rawHash = RecordHash.of(raw)
        }

        /// With the hash already known (InboxDocument, which hashed the bytes while reading).
        init(email: Email, raw: String, rawHash: Int64) {
            self.email = email
            self.raw = raw
            self.rawHash = rawHash
        }
    }

    /// Every record, read out (tests; a fetch keeps the InboxDocument).
    public static func read(_ data: Data, source: String) throws -> [Record] {
        try document(data, source: source).records
    }

    /// Reads the document downloaded into `file` (`size` bytes), through a memory map whose
    /// pages are handed back as the reading passes them.
    static func document(in file: ResponseBodyFile, size: Int, source: String) throws -> InboxDocument {
        let mapping = try MappedDocumentFile(descriptor: file.descriptor, count: size)
        return try document(mapping.data, mapping: mapping, source: source)
    }

    public static func document(_ data: Data, source: String) throws -> InboxDocument {
        try document(data, mapping: nil, source: source)
    }

    /// How many records are read between two hand-backs of the mapped pages read so far: in
    /// document order (8192 records, ~3.5 MB of a generated inbox), and in conversation order,
    /// where each record may be on pages of its own, and a fault may map its neighbours too (at
    /// 1,024 a re-fetch of a million held 42 MB of them; at 128, under 8 MB).
    static let recordsBetweenPageReleases = 8192
    static let scatteredRecordsBetweenPageReleases = 128

    static func document(_ data: Data, mapping: MappedDocumentFile?, source: String) throws -> InboxDocument {
        func bad(_ what: String) -> ConnError {
            ConnError.dataError(.badInbox, "the inbox from \(source) \(what)", hint: "The cache was left as it was.")
        }
        if data.prefix(64).drop(while: { [0x20, 0x0A, 0x0D, 0x09].contains($0) }).first == UInt8(ascii: "<") {
            throw bad("is an HTML page, not JSON (a captive portal or a login page?)")
        }
        if data.isEmpty { throw bad("is empty") }
        guard data.count <= InboxJSONScanner.maximumDocumentBytes else { throw bad("is larger than \(InboxJSONScanner.maximumDocumentBytes) bytes") }
        return try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) throws -> InboxDocument in
            var scanner = InboxJSONScanner(bytes, fieldNames: fields)
            var digest = DocumentDigest()
            var starts: [UInt32] = []
            // Records not kept as received (escaped keys, NUL): read out, by position, and
            // re-encoded once the whole document is known to be good.
            var replacements: [Int: Record] = [:]
            // The first record that is not a usable message; reported once the whole document is
            // known to be JSON, so a truncated body is called truncated.
            var problem: String?
            let shape: InboxJSONScanner.Shape
            do throws(InboxJSONScanner.SyntaxError) {
                shape = try scanner.read { index, element in
                    if let mapping, index % recordsBetweenPageReleases == 0, case .success(let record) = element {
                        digest.absorb(below: record.bytes.lowerBound, of: bytes)
                        mapping.releasePages(below: record.bytes.lowerBound)
                    }
                    guard problem == nil else { return }
                    switch element {
                    case .failure(let error):
                        problem = "has inbox[\(index)] that is \(error.kind), not an object"
                    case .success(let record):
                        if let (field, found) = record.wrongType {
                            problem = "has inbox[\(index)].\(field) that is \(found), not a string"
                            return
                        }
                        let spans = record.values
                        guard !spans[0].isAbsent, !InboxJSONScanner.text(of: spans[0], in: bytes).isEmpty else {
                            problem = "has inbox[\(index)] without a uid"
                            return
                        }
                        let recordBytes = UnsafeRawBufferPointer(rebasing: bytes[record.bytes])
                        var keepReencoded = record.escapedFieldKey
                        var email: Email?
                        if Self.mayHoldNUL(recordBytes) {
                            let read = InboxDocument.email(spans, in: bytes)
                            let visible = read.withVisibleNUL()
                            if visible != read {
                                email = visible
                                keepReencoded = true
                            }
                        }
                        if keepReencoded {
                            replacements[starts.count] = Record(email: email ?? InboxDocument.email(spans, in: bytes), raw: "")
                        }
                        starts.append(UInt32(record.bytes.lowerBound))
                    }
                }
            } catch {
                throw bad("is not valid JSON (truncated?): \(error.reason) at byte \(error.offset)")
            }
            switch shape {
            case .notAnObject: throw bad("is not a JSON object with an \"inbox\" array")
            case .noInboxField: throw bad("has no \"inbox\" field")
            case .inboxRepeated: throw bad("has more than one \"inbox\" field")
            case .inboxNotAnArray(let kind): throw bad("has an \"inbox\" that is \(kind), not an array")
            case .inbox: break
            }
            if let problem { throw bad(problem) }
            let encoder = JSONOutput.encoder()
            for index in replacements.keys {
                replacements[index]!.raw = String(decoding: try encoder.encode(replacements[index]!.email), as: UTF8.self)
            }
            let documentDigest = digest.finish(bytes)
            mapping?.releasePages()
            mapping?.readInAnyOrder()
            return InboxDocument(body: data, mapping: mapping, starts: starts, replacements: replacements, digest: documentDigest)
        }
    }

    /// Whether the record's bytes spell `\u0000` (JSON can carry a NUL only escaped).
    static func mayHoldNUL(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        var offset = 0
        // memchr finds each backslash fast; most records have none or a few.
        while offset + 6 <= bytes.count, let found = memchr(base + offset, 0x5C, bytes.count - offset) {
            let at = base.distance(to: UnsafeRawPointer(found))
            if at + 6 <= bytes.count, bytes[at + 1] == UInt8(ascii: "u"), bytes[at + 2] == 0x30, bytes[at + 3] == 0x30,
                bytes[at + 4] == 0x30, bytes[at + 5] == 0x30 {
                return true
            }
            offset = at + 2  // an escape is at least two bytes: skip "\\" as a whole
        }
        return false
    }
}

extension Email {
    /// The same e-mail with every NUL shown as U+2400 (␀).
    func withVisibleNUL() -> Email {
        func visible(_ text: String) -> String { text.contains("\u{0}") ? text.replacingOccurrences(of: "\u{0}", with: "\u{2400}") : text }
        return Email(uid: visible(uid), from: visible(from), to: visible(to), subject: visible(subject), text: visible(text),
                     responseToUid: visible(responseToUid), dateTime: visible(dateTime))
    }
}
