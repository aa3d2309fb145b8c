import ConnCore
import ConnTestSupport
import Foundation
import GRDB
import Testing

@testable import ConnInbox

/// The hash a re-fetch compares instead of each cached record's text.
@Suite("Record hash")
struct RecordHashTests {
    /// The value is stored in every cache: a change of the function without a migration that
    /// recomputes it would make the next fetch take every record for an update.
    @Test("the function is pinned: these values are in caches on disk")
    func pinnedValues() {
        #expect(RecordHash.of("") == RecordHash.of(UnsafeRawBufferPointer(start: nil, count: 0)))
        let pinned = [RecordHash.of(""), RecordHash.of("a"), RecordHash.of(#"{"uid":"1","subject":"hello"}"#)]
        #expect(pinned == Self.pinned, "now \(pinned)")
    }

    static let pinned: [Int64] = [-132_896_881_528_224_738, -2_147_977_765_097_056_389, -4_892_006_259_015_888_505]

    @Test("one byte changed, anywhere, in records of every length up to 3 words, changes the hash")
    func everyByteCounts() {
        let base = Array(#"{"uid":"1","from":"a@x","subject":"Ünïcode","text":"tail…"}"#.utf8)
        for length in 0...min(base.count, 48) {
            let record = Array(base.prefix(length))
            let hash = record.withUnsafeBytes { RecordHash.of($0) }
            for position in record.indices {
                var changed = record
                changed[position] ^= 0x01
                #expect(changed.withUnsafeBytes { RecordHash.of($0) } != hash, "length \(length), byte \(position)")
            }
            // A byte more or less: the zero padding of the last word does not hide the length.
            #expect((record + [0]).withUnsafeBytes { RecordHash.of($0) } != hash, "length \(length) + a zero byte")
        }
    }

    @Test("100,000 records that differ in a counter have 100,000 hashes")
    func noCollisionsAmongSimilarRecords() {
        var seen = Set<Int64>()
        for number in 0..<100_000 {
            seen.insert(RecordHash.of(#"{"uid":"\#(number)","subject":"Contract renewal","text":"Thanks for the quick turnaround."}"#))
        }
        #expect(seen.count == 100_000)
    }

    @Test("a cache hashed with the byte-wise hash of before: every hash is computed again, and the same record fetched again is unchanged")
    func migratesByteWiseHashes() throws {
        let raw = OlderInboxCache.record
        let cache = try OlderInboxCache(version: 3, raw: raw, rawHash: Self.fnv1a(raw))
        let database = cache.database
        let hash = try cache.storedHash()
        #expect(hash == RecordHash.of(raw) && hash != Self.fnv1a(raw))
        let records = try InboxDocumentReader.read(Data(#"{"inbox":[\#(raw)]}"#.utf8), source: "s")
        let summary = try InboxCache(database: database).store(records, etag: nil, requested: "s", source: "s", at: Date())
        #expect(summary.unchanged == 1 && summary.updated == 0 && summary.new == 0, "\(summary)")
    }

    /// RecordHash before inbox.v4: FNV-1a over the UTF-8.
    static func fnv1a(_ text: String) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return Int64(bitPattern: hash)
    }
}
