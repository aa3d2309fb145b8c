import Foundation
import Subprocess

#if canImport(System)
import System
#else
import SystemPackage
#endif

/// What a finished process left behind.
public struct ProcessOutcome: Sendable {
    public var exitCode: Int32
    public var standardOutput: String
    public var standardError: String
}

/// Runs the real, built executables (`conn`, later `conn-server`) as a user would.
public enum ConnProcess {
    /// The directory holding the built products: the test bundle sits beside them, unless
    /// `CONN_PRODUCTS_DIR` names another (CI: the release build, as shipped).
    public static var productsDirectory: String {
        if let override = ProcessInfo.processInfo.environment["CONN_PRODUCTS_DIR"] { return override }
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var directory = (executable as NSString).deletingLastPathComponent
        // On Linux the runner is <products>/connPackageTests.xctest (a file); elsewhere a bundle.
        while !FileManager.default.fileExists(atPath: directory + "/conn"), directory != "/" {
            directory = (directory as NSString).deletingLastPathComponent
        }
        return directory
    }

    public static var connPath: String { productsDirectory + "/conn" }

    /// Runs `conn ARGS…` with exactly `environment` (nothing inherited), feeding `input` on stdin.
    public static func run(
        _ executable: String = connPath, _ arguments: [String], environment: [String: String], input: String = ""
    ) async throws -> ProcessOutcome {
        // The input comes from a file, not a pipe: a program that exits before reading it (a
        // usage error) made swift-subprocess's pipe writer fail with EPIPE, and on that path it
        // left a descriptor open and crashed the whole test run ("FileDescriptor … was not closed").
        let inputFile = NSTemporaryDirectory() + "conn-input-\(UUID().uuidString)"
        guard FileManager.default.createFile(atPath: inputFile, contents: Data(input.utf8)) else {
            throw CocoaError(.fileWriteUnknown)
        }
        defer { unlink(inputFile) }
        let inputDescriptor = try FileDescriptor.open(FilePath(inputFile), .readOnly)
        let result = try await Subprocess.run(
            .path(FilePath(executable)),
            arguments: Arguments(arguments),
            // Raw entries must be NUL-terminated C strings.
            environment: .custom(environment.map { Array("\($0.key)=\($0.value)".utf8) + [0] }),
            input: .fileDescriptor(inputDescriptor, closeAfterSpawningProcess: true),
            output: .string(limit: 16 * 1024 * 1024),
            error: .string(limit: 16 * 1024 * 1024))
        let code: Int32
        switch result.terminationStatus {
        case .exited(let status): code = Int32(status)
        case .signaled(let signal): code = 128 + Int32(signal)
        }
        return ProcessOutcome(
            exitCode: code, standardOutput: result.standardOutput, standardError: result.standardError)
    }
}

extension ProcessOutcome {
    /// Standard output that is not the JSON a test expected, with both streams for the report.
    public struct NotJSON: Error, CustomStringConvertible {
        public let description: String
    }

    /// Standard output as one JSON object (a command's `--json` answer).
    public func json() throws -> [String: Any] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(standardOutput.utf8)) as? [String: Any] else {
            throw NotJSON(description: "stdout is not a JSON object: \(standardOutput.prefix(2000)) stderr: \(standardError.prefix(2000))")
        }
        return object
    }

    /// Standard error as the JSON error object of `--json` mode (`{"error":{…}}`).
    public func jsonError() throws -> [String: Any] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(standardError.utf8)) as? [String: Any],
            let error = object["error"] as? [String: Any]
        else {
            throw NotJSON(description: "stderr is not a JSON error: \(standardError.prefix(2000))")
        }
        return error
    }
}
