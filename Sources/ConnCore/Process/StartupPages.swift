import Foundation

/// Gives back the pages of conn's own code that only start-up used, for the commands that run
/// for hours (`conn watch`, `conn agent`). The executable is one static binary of ~80 MB: parsing
/// the command line, reading the configuration and the first look touch ~22 MB of its code
/// (every protocol-conformance scan walks records spread over the whole binary, and each fault
/// maps its neighbours too), most of which a running monitor never touches again. They are
/// clean pages of the file: the kernel drops them from this process at once (MADV_PAGEOUT,
/// Linux 5.4) and any that are still used come back on their next touch from the page cache.
/// Measured on `conn watch` with 100 targets: 34.5 MB resident before, 24.6 MB a minute after
/// (BENCHMARKS.md).
public enum StartupPages {
    /// From linux/mman-common.h; Glibc does not export it to Swift.
    static let adviceToPageOut: Int32 = 21

    /// Advises the kernel to reclaim the executable's code mappings now; returns the bytes
    /// advised (0 where /proc is missing or the kernel predates MADV_PAGEOUT: nothing changes).
    @discardableResult
    public static func release() -> Int {
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
            let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8)
        else { return 0 }
        var advised = 0
        for mapping in codeMappings(in: maps, of: executable) {
            guard let start = UnsafeMutableRawPointer(bitPattern: mapping.lowerBound) else { continue }
            if madvise(start, mapping.count, adviceToPageOut) == 0 { advised += mapping.count }
        }
        return advised
    }

    /// The executable (`x`) mappings of the file at `path` in a /proc/PID/maps text: "START-END
    /// PERMS OFFSET DEVICE INODE PATH".
    static func codeMappings(in maps: String, of path: String) -> [Range<UInt>] {
        maps.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count == 6, fields[1].contains("x"), fields[5].trimmingWhitespace() == path else { return nil }
            let bounds = fields[0].split(separator: "-")
            guard bounds.count == 2, let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16), start < end else { return nil }
            return start..<end
        }
    }
}
