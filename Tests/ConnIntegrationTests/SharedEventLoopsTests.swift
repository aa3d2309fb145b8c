import ConnTestSupport
import Foundation
import Testing

@testable import ConnCore

/// conn asks SwiftNIO for at most four shared event loops: NIO's default, one per core, all
/// started at the first connection, cost a 64-core server 6 ms on every `conn probe`.
@Suite("shared event loops")
struct SharedEventLoopsTests {
    @Test("the loops: the cores online, at least one, at most four")
    func loopCount() {
        #expect(SharedEventLoops.loops(usableCores: 0) == 1)
        #expect(SharedEventLoops.loops(usableCores: 1) == 1)
        #expect(SharedEventLoops.loops(usableCores: 2) == 2)
        #expect(SharedEventLoops.loops(usableCores: 4) == 4)
        #expect(SharedEventLoops.loops(usableCores: 64) == 4)
    }

    /// The CPUs online as the kernel lists them (/sys/devices/system/cpu/online: "0-3,6,8-9"), an
    /// oracle apart from the sysconf call the code makes.
    static func onlineCPUs() throws -> Int {
        let list = try String(contentsOfFile: "/sys/devices/system/cpu/online", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        return try list.split(separator: ",").reduce(0) { count, part in
            let bounds = part.split(separator: "-").compactMap { Int($0) }
            guard let first = bounds.first, bounds.count == (part.contains("-") ? 2 : 1) else { throw POSIXError(.EINVAL) }
            return count + (bounds.last! - first + 1)
        }
    }

    /// The names of the running threads of `pid` that are loops of NIO's shared group.
    static func loopThreads(of pid: Int32) throws -> Set<String> {
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
        let names = tasks.compactMap { try? String(contentsOfFile: "/proc/\(pid)/task/\($0)/comm", encoding: .utf8) }
        return Set(names.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { $0.hasPrefix("NIO-SGLTN-1-#") })
    }

    @Test("a live conn watch runs min(cores, 4) loops; NIO_SINGLETON_GROUP_LOOP_COUNT still decides when set")
    func liveProcess() async throws {
        let home = try TemporaryDirectory()
        let cores = try Self.onlineCPUs()  // online, as conn counts them (not a quota)
        #expect(SharedEventLoops.usableCores() == cores)
        try await ServerProcess.with { url in
            for (variable, expected) in [(nil, min(cores, 4)), ("5", 5)] as [(String?, Int)] {
                var environment = home.environment.merging(["CONN_SERVER": url.absoluteString]) { $1 }
                environment["NIO_SINGLETON_GROUP_LOOP_COUNT"] = variable
                let watch = try JSONLinesProcess(ConnProcess.connPath, ["watch", "--json", "--no-internet", "--interval", "1h"], environment: environment)
                let connected = try await watch.await { ($0["connectionState"] as? [String: Any])?["status"] as? String == "connected" }
                #expect(connected != nil, "\(watch.events) \(watch.errorOutput)")
                let threads = try Self.loopThreads(of: watch.process.processIdentifier)
                #expect(threads.count == expected, "NIO_SINGLETON_GROUP_LOOP_COUNT=\(variable ?? "(unset)"), \(cores) cores: \(threads.sorted())")
                #expect(await watch.stop() == 143)
            }
        }
    }
}
