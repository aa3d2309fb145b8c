import Foundation

/// Gives back the pages of conn's own binary that only start-up used, for the commands that run
/// for hours (`conn watch`, `conn agent`, `conn top`). The executable is one static binary of
/// ~85 MB: parsing the command line, reading the configuration, the first look, the first sync
/// and the link's start touch ~13 MB of its code and ~5 MB of its read-only data (conformance
/// records, metadata, strings), most of which a running monitor never touches again.
///
/// They are clean pages of the file: the kernel drops them from this process at once
/// (MADV_PAGEOUT, Linux 5.4) and any that are still used come back on their next touch from the
/// page cache. Pages written since start (relocated data, globals) are not the file's any more:
/// without swap they stay; with swap the kernel may write them out too, and they come back from
/// it on their next touch (twice in a process's life, a few MB at most). Then MADV_RANDOM: a
/// later fault maps the one page it needs instead of the 16 around it (fault-around), so the
/// code of a look every 30 s costs its own pages, not its neighbours'.
/// Measured on the idle agent (issue 34).
public enum StartupPages {
    /// From linux/mman-common.h; Glibc does not export it to Swift.
    static let adviceToPageOut: Int32 = 21

    /// When a live session gives the pages back, each delay after the one before: once start-up
    /// is over (the first look, sync, delivery pass and the link's first answer take well under a
    /// second on a reachable server; seconds when it is not), and once more after the first
    /// periodic look, whose code the start did not run.
    public static let releaseTimes: [Duration] = [.seconds(5), .seconds(40)]

    /// Advises the kernel to reclaim the executable's file-backed mappings now and to map single
    /// pages from then on; returns the bytes advised (0 where /proc is missing or the kernel
    /// predates MADV_PAGEOUT: nothing changes).
    @discardableResult
    public static func release() -> Int {
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
            let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8)
        else { return 0 }
        var advised = 0
        for mapping in fileMappings(in: maps, of: executable) {
            guard let start = UnsafeMutableRawPointer(bitPattern: mapping.lowerBound) else { continue }
            if madvise(start, mapping.count, adviceToPageOut) == 0 { advised += mapping.count }
            _ = madvise(start, mapping.count, MADV_RANDOM)
        }
        return advised
    }

    /// The mappings of the file at `path` in a /proc/PID/maps text ("START-END PERMS OFFSET
    /// DEVICE INODE PATH"): its code, its read-only data and the writable data it was loaded
    /// with (whose pages are the file's until written: here, read-only data the linker put in
    /// the writable segment, 5 of its 6 resident MB in the idle agent).
    static func fileMappings(in maps: String, of path: String) -> [Range<UInt>] {
        maps.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count == 6, fields[5].trimmingWhitespace() == path else { return nil }
            let bounds = fields[0].split(separator: "-")
            guard bounds.count == 2, let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16), start < end else { return nil }
            return start..<end
        }
    }
}
