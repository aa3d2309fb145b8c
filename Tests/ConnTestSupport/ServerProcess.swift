import Foundation
import Subprocess

#if canImport(System)
import System
#else
import SystemPackage
#endif

/// Runs the real `conn-server` for the length of a test.
public enum ServerProcess {
    public static var serverPath: String { ConnProcess.productsDirectory + "/conn-server" }

    public struct StartFailure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts `conn-server --port 0 ARGS…`, waits for its `listening on URL` line, runs `body`
    /// with the base URL, then stops the server with SIGTERM and waits for it to exit.
    /// `environment` is added to the test process's own.
    public static func with<Result: Sendable>(
        _ arguments: [String] = [], environment: [String: String] = [:], _ body: (URL) async throws -> Result
    ) async throws -> Result {
        let outcome = try await Subprocess.run(
            .path(FilePath(serverPath)), arguments: Arguments(["--port", "0"] + arguments),
            environment: .inherit.updating(Dictionary(uniqueKeysWithValues: environment.map { (Environment.Key(rawValue: $0.key)!, Optional($0.value)) })),
            input: .none, output: .sequence, error: .string(limit: 1 << 20)
        ) { execution in
            var lines = execution.standardOutput.strings().makeAsyncIterator()
            guard let first = try await lines.next(), first.hasPrefix("listening on "),
                let url = URL(string: first.dropFirst("listening on ".count).trimmingCharacters(in: .whitespacesAndNewlines))
            else {
                throw StartFailure(description: "conn-server \(arguments.joined(separator: " ")) did not start")
            }
            do {
                let result = try await body(url)
                try? execution.send(signal: .terminate)
                return result
            } catch {
                try? execution.send(signal: .terminate)
                throw error
            }
        }
        return outcome.closureResult
    }
}
