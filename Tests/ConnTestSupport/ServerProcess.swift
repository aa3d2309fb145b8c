import Foundation

/// Where the built `conn-server` is, and running it for the length of a test.
public enum ServerProcess {
    public static var serverPath: String { ConnProcess.productsDirectory + "/conn-server" }

    public struct StartFailure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs `conn-server --port 0 ARGS…` (`environment` added to the test process's own) for the
    /// length of `body`, which gets its base URL; then stops it with SIGTERM and waits for it.
    public static func with<Result: Sendable>(
        _ arguments: [String] = [], environment: [String: String] = [:], _ body: (URL) async throws -> Result
    ) async throws -> Result {
        let server = try await BackgroundServer.start(arguments, environment: environment)
        do {
            let result = try await body(server.url)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }
}
