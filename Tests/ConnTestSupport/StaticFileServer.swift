import Foundation
import Subprocess

#if canImport(System)
import System
#else
import SystemPackage
#endif

/// Python's http.server on a loopback port, serving a directory as it is: for answers no real
/// back end would give (truncated JSON, an HTML page in place of the inbox).
public enum StaticFileServer {
    public static func with<Result: Sendable>(directory: String, _ body: (URL) async throws -> Result) async throws -> Result {
        let port = try HTTPPorts.free()
        let outcome = try await Subprocess.run(
            .name("python3"), arguments: ["-m", "http.server", String(port), "--bind", "127.0.0.1", "--directory", directory],
            input: .none, output: .discarded, error: .discarded
        ) { execution in
            // Python starts slowly on a loaded machine (the suite runs in parallel): 20 s, not 5.
            let ready = try await LoopbackListener.waitUntilAccepting(port: port, seconds: 20)
            defer { try? execution.send(signal: .terminate) }
            guard ready else { throw ServerProcess.StartFailure(description: "python3 -m http.server did not start") }
            return try await body(URL(string: "http://127.0.0.1:\(port)")!)
        }
        return outcome.closureResult
    }
}
