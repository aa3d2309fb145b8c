/// A 64-bit digest of a whole document, taken a mebibyte at a time as the reader moves through
/// it (so a mapped document's pages are hashed before they are handed back): a re-fetch whose
/// document is byte for byte the one stored last skips the merge. RecordHash of each mebibyte,
/// then RecordHash of those hashes; as RecordHash, a change kept unseen is a chance of 2^-64.
struct DocumentDigest {
    static let chunkBytes = 1 << 20
    private var hashed = 0
    private var chunkHashes: [Int64] = []

    /// Hashes the whole mebibytes below `offset` not hashed yet.
    mutating func absorb(below offset: Int, of bytes: UnsafeRawBufferPointer) {
        while hashed + Self.chunkBytes <= min(offset, bytes.count) {
            chunkHashes.append(RecordHash.of(UnsafeRawBufferPointer(rebasing: bytes[hashed..<hashed + Self.chunkBytes])))
            hashed += Self.chunkBytes
        }
    }

    /// The digest of all of `bytes`.
    mutating func finish(_ bytes: UnsafeRawBufferPointer) -> Int64 {
        absorb(below: bytes.count, of: bytes)
        if hashed < bytes.count { chunkHashes.append(RecordHash.of(UnsafeRawBufferPointer(rebasing: bytes[hashed...]))) }
        hashed = bytes.count
        return chunkHashes.withUnsafeBytes { RecordHash.of($0) }
    }
}
