/// A stable 64-bit hash of a cached record's text (FNV-1a over its UTF-8): what a re-fetch
/// compares to tell an unchanged record from an update, so that it loads 8 bytes per cached
/// message instead of the whole record. Not a defence against a server that wants a change
/// ignored — a server that wants that need only not send the change; an accidental collision
/// among 100,000 records is about 1 in 10^14.
enum RecordHash {
    static func of(_ text: String) -> Int64 {
        var text = text
        return text.withUTF8 { of(UnsafeRawBufferPointer($0)) }
    }

    static func of(_ bytes: UnsafeRawBufferPointer) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return Int64(bitPattern: hash)
    }
}
