import Foundation
import Testing

@testable import ConnCore

/// Long-running commands give back the code pages only start-up used.
@Suite("start-up pages")
struct StartupPagesTests {
    @Test("the executable's code mappings are found in /proc/PID/maps text: paths with spaces, other files and data left out")
    func codeMappings() {
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
        #expect(StartupPages.codeMappings(in: maps, of: "/opt/my tools/conn") == [0x55fd9e12f000..<0x55fda0d64000])
        #expect(StartupPages.codeMappings(in: maps, of: "/nowhere").isEmpty)
    }

    @Test("release advises this process's own code and it runs on: the pages come back as they are touched")
    func releaseRunsOn() throws {
        let maps = try String(contentsOfFile: "/proc/self/maps", encoding: .utf8)
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let code = StartupPages.codeMappings(in: maps, of: executable)
        #expect(!code.isEmpty, "no code mapping of \(executable)")
        let advised = StartupPages.release()
        // Every byte of the code mappings (the kernel here has MADV_PAGEOUT: 5.4 and later).
        #expect(advised == code.reduce(0) { $0 + $1.count })
        // Code that was paged out still runs.
        #expect(StartupPages.codeMappings(in: maps, of: executable) == code)
    }
}
