import ConnProtocol
import Foundation

/// An inbox document, read and checked: the body as received and where each record lies in it.
/// A record's fields become Strings only when asked for (`record(at:)`), so a re-fetch pays
/// for the records that changed, not for all 100,000, and a full fetch holds one record's
/// strings at a time instead of every record's (the body is kept instead: it is one buffer).
public struct InboxDocument: Sendable {
    struct Entry: Sendable {
        var uid: String
        /// RecordHash of the record's text as it will be cached.
        var rawHash: Int64
        /// The record's bytes, from `{` to `}`.
        var bytes: Range<Int>
        /// Where each of InboxDocumentReader.fields' values lies (`.absent` for none).
        var fields: InlineArray<7, InboxJSONScanner.TextSpan>
        /// For a record that is not kept as received (see Record.raw): its index in `replacements`.
        var replacement: Int?
    }

    private let body: Data
    /// The file `body` is mapped from, when it came from one: kept open while the body is used.
    private let mapping: MappedDocumentFile?
    private(set) var entries: [Entry]
    private var replacements: [InboxDocumentReader.Record]

    init(body: Data, mapping: MappedDocumentFile? = nil, entries: [Entry], replacements: [InboxDocumentReader.Record]) {
        self.body = body
        self.mapping = mapping
        self.entries = entries
        self.replacements = replacements
    }

    /// Hands back the body's resident pages, when it is mapped from a file: a long pass over
    /// the records calls this now and then, so the document's pages do not pile up in memory.
    func releaseResidentPages() {
        mapping?.releasePages()
    }

    /// A document of records already read (tests, and callers that hold records).
    public init(records: [InboxDocumentReader.Record]) {
        body = Data()
        mapping = nil
        replacements = records
        entries = records.indices.map { index in
            Entry(uid: records[index].email.uid, rawHash: records[index].rawHash, bytes: 0..<0,
                  fields: InlineArray(repeating: .absent), replacement: index)
        }
    }

    public var count: Int { entries.count }

    /// The record at `index`, its fields read out of the body.
    public func record(at index: Int) -> InboxDocumentReader.Record {
        let entry = entries[index]
        if let replacement = entry.replacement { return replacements[replacement] }
        return body.withUnsafeBytes { bytes in
            InboxDocumentReader.Record(email: Self.email(entry, in: bytes),
                                       raw: String(decoding: UnsafeRawBufferPointer(rebasing: bytes[entry.bytes]), as: UTF8.self),
                                       rawHash: entry.rawHash)
        }
    }

    /// The record's text at `index` as it will be cached (Record.raw), as UTF-8 bytes, without
    /// making a String of it: what writing a row needs.
    func withRawText<Result>(at index: Int, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        let entry = entries[index]
        if let replacement = entry.replacement {
            var raw = replacements[replacement].raw
            return try raw.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
        }
        return try self.body.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[entry.bytes])) }
    }

    /// The e-mail at `index` without its raw text: what a conversation's summary needs.
    func email(at index: Int) -> Email {
        let entry = entries[index]
        if let replacement = entry.replacement { return replacements[replacement].email }
        return body.withUnsafeBytes { Self.email(entry, in: $0) }
    }

    /// What threading needs of the record at `index`: its parent's uid and its date text.
    func threading(at index: Int) -> (responseToUid: String, dateTime: String) {
        let entry = entries[index]
        if let replacement = entry.replacement {
            let email = replacements[replacement].email
            return (email.responseToUid, email.dateTime)
        }
        return body.withUnsafeBytes { bytes in
            (Self.text(entry.fields[5], in: bytes), Self.text(entry.fields[6], in: bytes))
        }
    }

    /// Every record, read out (tests, and InboxDocumentReader.read).
    public var records: [InboxDocumentReader.Record] { entries.indices.map(record(at:)) }

    static func email(_ entry: Entry, in bytes: UnsafeRawBufferPointer) -> Email {
        Email(uid: entry.uid, from: text(entry.fields[1], in: bytes), to: text(entry.fields[2], in: bytes),
              subject: text(entry.fields[3], in: bytes), text: text(entry.fields[4], in: bytes),
              responseToUid: text(entry.fields[5], in: bytes), dateTime: text(entry.fields[6], in: bytes))
    }

    private static func text(_ span: InboxJSONScanner.TextSpan, in bytes: UnsafeRawBufferPointer) -> String {
        span.isAbsent ? "" : InboxJSONScanner.text(of: span, in: bytes)
    }
}
