/// A stable 64-bit hash of a cached record's text: what a re-fetch compares to tell an unchanged
/// record from an update, so that it loads 8 bytes per cached message instead of the whole
/// record. Not a defence against a server that wants a change ignored — a server that wants that
/// need only not send the change; that one of 100,000 changed records keeps its old hash by
/// accident is about 1 in 10^14.
///
/// Every byte of every fetched record goes through it (43 MB for 100,000 e-mails), so it takes
/// 16 bytes per step: each step folds two 8-byte words into the state with one 64×64→128-bit
/// multiply, high half xor low half. FNV-1a, the hash before it, took one byte per multiply and
/// was 38 ms of a 100,000-record fetch; this takes about 4.
///
/// The value is stored in the cache (`inboxMessage.rawHash`): changing the function needs a
/// migration that recomputes it (InboxMigrations' "inbox.v4.recordHashByWords").
enum RecordHash {
    static func of(_ text: String) -> Int64 {
        var text = text
        return text.withUTF8 { of(UnsafeRawBufferPointer($0)) }
    }

    static func of(_ bytes: UnsafeRawBufferPointer) -> Int64 {
        let count = bytes.count
        var state = fold(seed, UInt64(count) ^ lengthKey)
        var offset = 0
        while offset + 16 <= count {
            state = step(state, word(bytes, at: offset), word(bytes, at: offset + 8))
            offset += 16
        }
        // The last 1...15 bytes, zero-padded: the length, mixed in above, tells the padding apart.
        if offset < count {
            var tail: (UInt64, UInt64) = (0, 0)
            withUnsafeMutableBytes(of: &tail) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset...])) }
            state = step(state, UInt64(littleEndian: tail.0), UInt64(littleEndian: tail.1))
        }
        return Int64(bitPattern: fold(state ^ finalKey, state >> 29 ^ lengthKey))
    }

    /// One 16-byte step. `first ^ wordKey` is never zero for text: the key has 0xFF bytes, which
    /// UTF-8 never holds, so no word of the record can cancel the multiply.
    private static func step(_ state: UInt64, _ first: UInt64, _ second: UInt64) -> UInt64 {
        fold(first ^ wordKey, second ^ state)
    }

    private static func fold(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return product.high ^ product.low
    }

    /// Little-endian, so a cache copied to another machine keeps its hashes.
    private static func word(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    // Odd constants with their bits spread; wordKey's low and high bytes are 0xFF.
    private static let seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    private static let wordKey: UInt64 = 0xFF3C_6EF3_72FE_94FF
    private static let lengthKey: UInt64 = 0xBF58_476D_1CE4_E5B9
    private static let finalKey: UInt64 = 0x94D0_49BB_1331_11EB
}
