import ConnCore
import ConnTestSupport
import Foundation
import Testing

/// Closed pipes: a hook that exits without reading its event must not kill `conn watch` (conn
/// ignores SIGPIPE), and a reader that closes conn's stdout still ends it, as SIGPIPE would (141).
@Suite("conn watch and closed pipes")
struct WatchPipeTests {
    static let health = BadServer.Route(method: "GET", path: "/health", status: 204, body: "")

    /// `conn watch ARGS…` against `server` in `home`, stderr discarded, stdout to `output`; started.
    func startWatch(_ arguments: [String], server: BadServer, home: TemporaryDirectory, output: SpawnedProcess.Stream) throws -> SpawnedProcess {
        try SpawnedProcess(ConnProcess.connPath, ["watch", "--json", "--no-internet", "--no-link"] + arguments,
                           environment: home.environment.merging(["CONN_SERVER": server.url.absoluteString]) { $1 }, output: output)
    }

    @Test("conn ignores SIGPIPE, and keeps watching through hooks that exit without reading stdin")
    func hookThatExitsEarly() async throws {
        try await BadServer.with([Self.health]) { server in
            let home = try TemporaryDirectory()
            // The timeout is long enough that a loaded machine still reads /proc while conn runs
            // (CI once resumed this test after conn's former 3 s were over).
            let process = try startWatch(["--interval", "100ms", "--exec", "exec 0<&-; exit 0", "--until", "offline", "--timeout", "15s"],
                                         server: server, home: home, output: .null)
            // SigIgn in /proc/PID/status is a hex mask; SIGPIPE is signal 13 (bit 12). conn sets
            // it while starting, so read until it shows (or conn is gone, which fails below).
            var ignored = false
            var lastLine = ""
            while !ignored, process.isRunning {
                guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
                      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigIgn:") }),
                      let mask = UInt64(line.dropFirst("SigIgn:".count).trimmingCharacters(in: .whitespaces), radix: 16)
                else { break }
                lastLine = String(line)
                ignored = mask & (1 << (UInt64(SIGPIPE) - 1)) != 0
                if !ignored { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(ignored, "SIGPIPE is not ignored while conn watch runs: \(lastLine)")
            await process.exited()
            // Ran to its own timeout: 75, not killed by a signal.
            #expect(process.terminationReason == .exit && process.terminationStatus == 75, "\(process.terminationReason) \(process.terminationStatus)")
        }
    }

    @Test("a reader that closes stdout ends conn watch with 141, as SIGPIPE did, instead of leaving it running")
    func closedStandardOutput() async throws {
        try await BadServer.with([Self.health]) { server in
            let home = try TemporaryDirectory()
            // conn finds the closed pipe when it writes its closing line at the timeout; the
            // timeout leaves a loaded machine time to read the baseline and close first (8 s
            // was not enough once: the test read the baseline after conn's timeout, exit 75).
            let process = try startWatch(["--until", "offline", "--timeout", "15s"], server: server, home: home, output: .pipe)
            let output = OutputReader(try #require(process.standardOutput))
            // Read the baseline line, then close the pipe like `head -1` does.
            let received = await output.wait { $0.contains("\n") }
            try output.close()
            await process.exited()
            #expect(received.contains("baseline"))
            #expect(process.terminationReason == .exit && process.terminationStatus == 141, "\(process.terminationReason) \(process.terminationStatus)")
        }
    }
}
