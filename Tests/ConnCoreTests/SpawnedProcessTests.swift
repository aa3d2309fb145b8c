import ConnCore
import ConnTestSupport
import Foundation
import Testing

/// Children started without Foundation's Process, which crashes listing /proc/self/fd in a
/// process with more than about 1,300 descriptors (swift-corelibs-foundation PR 5472).
@Suite("spawned processes")
struct SpawnedProcessTests {
    /// The child's standard output, read to its end, and the child once it has ended.
    func run(_ script: String) async throws -> (output: String, process: SpawnedProcess) {
        let process = try SpawnedProcess("/bin/sh", ["-c", script], output: .pipe)
        let output = await OutputReader(try #require(process.standardOutput)).toEnd()
        await process.exited(killingAfter: 30)
        return (output, process)
    }

    @Test("started while this process holds 2,000 more descriptors (none close-on-exec): it starts, and inherits none of them")
    func manyDescriptors() async throws {
        let extra = (0..<2_000).map { _ in open("/dev/null", O_RDONLY) }
        defer { extra.filter { $0 >= 0 }.forEach { close($0) } }
        #expect(extra.allSatisfy { $0 >= 0 }, "could not open 2,000 descriptors")
        // ls lists its own: 0, 1, 2 and the directory it reads.
        let (output, process) = try await run("exec ls /proc/self/fd")
        let descriptors = output.split(separator: "\n").compactMap { Int($0) }
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        #expect(descriptors.count <= 4 && descriptors.allSatisfy { $0 <= 3 }, "inherited: \(descriptors)")
    }

    @Test("exit codes and signals are told apart, as Foundation's Process does")
    func terminationReasons() async throws {
        let exited = try await run("exit 3").process
        #expect(exited.terminationReason == .exit && exited.terminationStatus == 3)
        let signalled = try await run("kill -TERM $$").process
        #expect(signalled.terminationReason == .uncaughtSignal && signalled.terminationStatus == SIGTERM)
    }

    @Test("the child starts with no signal blocked, and none of the standard signals ignored, whatever this process does with them")
    func cleanSignals() async throws {
        let (output, _) = try await run("exec grep -E '^Sig(Blk|Ign):' /proc/self/status")
        let masks = output.split(separator: "\n").compactMap { $0.split(separator: "\t").last.flatMap { UInt64($0, radix: 16) } }
        #expect(masks.count == 2, "\(output)")
        // Signals 1–31. glibc's posix_spawn leaves its own two (32 and 33) ignored in the child of
        // a threaded process; the program's libc sets them up again when it starts.
        let standard: UInt64 = (1 << 31) - 1
        #expect(masks.allSatisfy { $0 & standard == 0 }, "\(output)")
    }

    @Test("one still running at the limit is killed (SIGKILL), and the wait ends")
    func killedAtTheLimit() async throws {
        let process = try SpawnedProcess("/bin/sleep", ["60"])
        #expect(process.isRunning)
        let status = await process.exited(killingAfter: 0.2)
        #expect(!process.isRunning && process.terminationReason == .uncaughtSignal && status == SIGKILL)
    }

    @Test("a program that does not exist is an error naming it, not a crash")
    func missingProgram() {
        #expect(throws: SpawnedProcess.SpawnFailure.self) { try SpawnedProcess("/nonexistent/conn-test", []) }
    }
}
