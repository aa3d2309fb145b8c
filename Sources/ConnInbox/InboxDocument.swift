import ConnProtocol
import Foundation

/// An inbox document, read and checked: the body as received and where each record starts in
/// it — four bytes a record. A record's fields are read again from the body when a pass needs
/// them (`entry(at:)`), so a fetch of a million messages does not hold a million records' fields;
/// the body itself is mapped from the downloaded file (`MappedDocumentFile`), not held.
public struct InboxDocument: Sendable {
    /// One record, read again out of the body.
    struct Entry {
        var uid: String
        var responseToUid: String
        var dateTime: String
        /// RecordHash of the record's text as it will be cached.
        var rawHash: Int64
        /// The record's bytes, from `{` to `}`; empty for a record not kept as received.
        var bytes: Range<Int>
        /// The record as it will be cached when it is not kept as received (see Record.raw).
        var replacement: InboxDocumentReader.Record?
        /// What a conversation's summary reads of it, when asked for (`entry(at:withFields:)`).
        var fields: ConversationRecord.Fields?
    }

    private let body: Data
    /// The file `body` is mapped from, when it came from one: kept open while the body is used.
    private let mapping: MappedDocumentFile?
    /// Where each record's `{` is in the body.
    private let starts: [UInt32]
    /// The records not kept as received (escaped keys, NUL), re-encoded, by position.
    private let replacements: [Int: InboxDocumentReader.Record]

    /// `DocumentDigest` of the body: the same digest as the document stored last means nothing changed.
    let digest: Int64

    init(body: Data, mapping: MappedDocumentFile? = nil, starts: [UInt32], replacements: [Int: InboxDocumentReader.Record], digest: Int64) {
        self.body = body
        self.mapping = mapping
        self.starts = starts
        self.replacements = replacements
        self.digest = digest
    }

    /// A document of records already read (tests, and callers that hold records): their texts
    /// in an inbox array, read as any document is.
    public init(records: [InboxDocumentReader.Record]) throws {
        let body = Data(("{\"inbox\":[" + records.map(\.raw).joined(separator: ",") + "]}").utf8)
        self = try InboxDocumentReader.document(body, source: "the records given")
    }

    public var count: Int { starts.count }

    /// Hands back the body's resident pages, when it is mapped from a file: a long pass over
    /// the records calls this now and then, so the document's pages do not pile up in memory.
    func releaseResidentPages() {
        mapping?.releasePages()
    }

    /// Counts the records a pass reads out of document order (each may lie on pages of its own,
    /// and a fault may map its neighbours too) and hands the pages back every
    /// `InboxDocumentReader.scatteredRecordsBetweenPageReleases` of them.
    struct ScatteredReads {
        private var count = 0

        /// One more record is about to be read out of `document`.
        mutating func count(in document: InboxDocument) {
            count += 1
            if count % InboxDocumentReader.scatteredRecordsBetweenPageReleases == 0 { document.releaseResidentPages() }
        }
    }

    /// The record at `index`, its threading fields and hash read out of the body; `withFields`:
    /// with what a conversation's summary needs too, from the same reading.
    func entry(at index: Int, withFields: Bool = false) -> Entry {
        if let replacement = replacements[index] {
            let email = replacement.email
            return Entry(uid: email.uid, responseToUid: email.responseToUid, dateTime: email.dateTime, rawHash: replacement.rawHash, bytes: 0..<0,
                         replacement: replacement, fields: withFields ? ConversationRecord.Fields(email) : nil)
        }
        return body.withUnsafeBytes { bytes in
            let record = Self.reread(at: index, starts, in: bytes)
            let spans = record.values
            let fields = withFields
                ? ConversationRecord.Fields(from: Self.text(spans[1], in: bytes), to: Self.text(spans[2], in: bytes), subject: Self.text(spans[3], in: bytes),
                                            text: Self.text(spans[4], in: bytes), dateTime: Self.text(spans[6], in: bytes))
                : nil
            return Entry(uid: Self.text(spans[0], in: bytes), responseToUid: Self.text(spans[5], in: bytes), dateTime: Self.text(spans[6], in: bytes),
                         rawHash: RecordHash.of(UnsafeRawBufferPointer(rebasing: bytes[record.bytes])), bytes: record.bytes, replacement: nil,
                         fields: fields)
        }
    }

    /// The entry's text as it will be cached (Record.raw), as UTF-8 bytes, without making a
    /// String of it: what writing a row needs.
    func withRawText<Result>(of entry: Entry, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        if let replacement = entry.replacement {
            var raw = replacement.raw
            return try raw.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
        }
        return try self.body.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[entry.bytes])) }
    }

    /// The record at `index`, its fields read out of the body.
    public func record(at index: Int) -> InboxDocumentReader.Record {
        let entry = entry(at: index, withFields: true)
        if let replacement = entry.replacement { return replacement }
        let fields = entry.fields!
        let email = Email(uid: entry.uid, from: fields.from, to: fields.to, subject: fields.subject, text: fields.text,
                          responseToUid: entry.responseToUid, dateTime: entry.dateTime)
        return InboxDocumentReader.Record(email: email, raw: withRawText(of: entry) { String(decoding: $0, as: UTF8.self) }, rawHash: entry.rawHash)
    }

    /// Every record, read out (tests, and InboxDocumentReader.read).
    public var records: [InboxDocumentReader.Record] { starts.indices.map(record(at:)) }

    /// The record at `index` read again: the document was checked whole when it was read, so
    /// this cannot fail but for a bug.
    private static func reread(at index: Int, _ starts: [UInt32], in bytes: UnsafeRawBufferPointer) -> InboxJSONScanner.RawRecord {
        var scanner = InboxJSONScanner(bytes, fieldNames: InboxDocumentReader.fields, checked: true)
        do {
            return try scanner.record(at: Int(starts[index]))
        } catch {
            preconditionFailure("inbox[\(index)] read differently the second time: \(error.reason) at byte \(error.offset)")
        }
    }

    static func email(_ spans: [InboxJSONScanner.TextSpan], in bytes: UnsafeRawBufferPointer) -> Email {
        Email(uid: text(spans[0], in: bytes), from: text(spans[1], in: bytes), to: text(spans[2], in: bytes),
              subject: text(spans[3], in: bytes), text: text(spans[4], in: bytes),
              responseToUid: text(spans[5], in: bytes), dateTime: text(spans[6], in: bytes))
    }

    private static func text(_ span: InboxJSONScanner.TextSpan, in bytes: UnsafeRawBufferPointer) -> String {
        span.isAbsent ? "" : InboxJSONScanner.text(of: span, in: bytes)
    }
}
