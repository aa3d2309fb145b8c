import ConnCore
import Foundation

/// A downloaded document read through a read-only memory map instead of into memory: its pages
/// come from the page cache as they are read and are handed back (`releasePages`) once passed,
/// so a 430 MB inbox is read with a few megabytes resident. The map lives as long as this object.
final class MappedDocumentFile: @unchecked Sendable {
    private let base: UnsafeMutableRawPointer?
    let count: Int
    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Maps the first `count` bytes of the open file `descriptor`.
    init(descriptor: Int32, count: Int) throws {
        self.count = count
        guard count > 0 else {
            base = nil
            return
        }
        let mapped = mmap(nil, count, PROT_READ, MAP_PRIVATE, descriptor, 0)
        guard let mapped, mapped != MAP_FAILED else {
            throw ConnError(code: .ioError, message: "cannot read the downloaded document (\(count) bytes): \(String(cString: strerror(errno)))",
                            hint: "Check the disk and the memory limits; then run the command again.", exitStatus: .ioError)
        }
        // Read front to back: the kernel may read ahead further.
        madvise(mapped, count, MADV_SEQUENTIAL)
        base = mapped
    }

    deinit {
        if let base { munmap(base, count) }
    }

    /// The bytes, without a copy; valid while this object lives.
    var data: Data {
        guard let base else { return Data() }
        return Data(bytesNoCopy: base, count: count, deallocator: .none)
    }

    /// From now on the records are read in any order (a conversation's, not the document's):
    /// the kernel reads nothing ahead. (Pages still pile up faster than one a record — a
    /// re-fetch of a million held 42 MB of them between hand-backs every 1,024 records — so the
    /// passes in conversation order hand them back every 128.)
    func readInAnyOrder() {
        if let base { madvise(base, count, MADV_RANDOM) }
    }

    /// Hands back the resident pages below `offset` (all of them by default); a later read of
    /// them maps them again from the page cache.
    func releasePages(below offset: Int? = nil) {
        guard let base else { return }
        let end = (min(offset ?? count, count) / Self.pageSize) * Self.pageSize
        if end > 0 { madvise(base, end, MADV_DONTNEED) }
    }
}
