import Foundation
import Testing

@testable import ConnCore

/// Long-running commands give back the code pages only start-up used.
@Suite("start-up pages")
struct StartupPagesTests {
    @Test("the executable's mappings are found in /proc/PID/maps text: paths with spaces, other files and anonymous memory left out")
    func fileMappings() {
        let maps = """
            55fd9e12f000-55fda0d64000 r-xp 00000000 08:01 1234                       /opt/my tools/conn
            55fda0d64000-55fda0eb6000 r--p 02c35000 08:01 1234                       /opt/my tools/conn
            55fda0eb6000-55fda3460000 rw-p 02d87000 08:01 1234                       /opt/my tools/conn
            55fda3460000-55fda35cb000 rw-p 00000000 00:00 0
            7f9a8e844000-7f9a8e99a000 r-xp 00028000 08:01 99                         /usr/lib/x86_64-linux-gnu/libc.so.6
            7f9a8f000000-7f9a8f001000 r-xp 00000000 08:01 1234                       /opt/my tools/conn-other
            ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0                  [vsyscall]
            bad line
            """
        #expect(StartupPages.fileMappings(in: maps, of: "/opt/my tools/conn")
            == [0x55fd9e12f000..<0x55fda0d64000, 0x55fda0d64000..<0x55fda0eb6000, 0x55fda0eb6000..<0x55fda3460000])
        #expect(StartupPages.fileMappings(in: maps, of: "/nowhere").isEmpty)
    }

    @Test("release gives back this process's own pages, marks its mappings for single-page faults, and it runs on")
    func releaseRunsOn() throws {
        let maps = try String(contentsOfFile: "/proc/self/maps", encoding: .utf8)
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let mappings = StartupPages.fileMappings(in: maps, of: executable)
        #expect(!mappings.isEmpty, "no mapping of \(executable)")
        let before = try Self.resident(of: executable)
        let advised = StartupPages.release()
        var after = try Self.resident(of: executable)
        // Every byte of the mappings (the kernel here has MADV_PAGEOUT: 5.4 and later).
        #expect(advised == mappings.reduce(0) { $0 + $1.count })
        // The test binary's start-up touched megabytes of it. The other suites run code of the
        // same binary meanwhile and fault some of it back at once (45 → 24 MB in a loaded run),
        // so: the fewest of three tries, and a quarter gone at least (nothing goes without release).
        for _ in 1..<3 where after.kilobytes >= before.kilobytes * 3 / 4 {
            _ = StartupPages.release()
            after = try Self.resident(of: executable)
        }
        #expect(after.kilobytes < before.kilobytes * 3 / 4, "resident \(before.kilobytes) kB before, \(after.kilobytes) kB after")
        // MADV_RANDOM shows as "rr" among the mapping's flags.
        #expect(after.randomRead == mappings.count, "\(after.randomRead) of \(mappings.count) mappings advised random")
        // The mappings are still there, as they were (given back, not unmapped), read anew...
        let mapsAfter = try String(contentsOfFile: "/proc/self/maps", encoding: .utf8)
        #expect(StartupPages.fileMappings(in: mapsAfter, of: executable) == mappings)
        // ...and code that was paged out runs, giving the answer it gave before.
        let sample = "55fd9e12f000-55fda0d64000 r-xp 00000000 08:01 1234 /opt/x/conn\n"
        #expect(StartupPages.fileMappings(in: sample, of: "/opt/x/conn") == [0x55fd9e12f000..<0x55fda0d64000])
    }

    /// The resident kilobytes of `path`'s mappings in /proc/self/smaps, and how many of them
    /// carry the random-read flag.
    static func resident(of path: String) throws -> (kilobytes: Int, randomRead: Int) {
        var current = false
        var kilobytes = 0, randomRead = 0
        for line in try String(contentsOfFile: "/proc/self/smaps", encoding: .utf8).split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if first.contains("-") && !first.hasSuffix(":") {
                current = line.hasSuffix(" " + path)
            } else if current && first == "Rss:", fields.count > 1, let value = Int(fields[1]) {
                kilobytes += value
            } else if current && first == "VmFlags:" && fields.contains("rr") {
                randomRead += 1
            }
        }
        return (kilobytes, randomRead)
    }
}
