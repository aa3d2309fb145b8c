import Foundation

/// A conn-server the test can signal: stop it (SIGSTOP) to freeze it mid-request, continue it,
/// kill it, and restart it on the same port. `ServerProcess.with` is simpler where none of that
/// is needed.
public final class BackgroundServer: @unchecked Sendable {
    public let process: Process
    public let url: URL
    public var pid: Int32 { process.processIdentifier }

    /// Starts `conn-server ARGS…` (with `--port 0` unless ARGS name a port) and waits for its
    /// `listening on URL` line.
    /// `wrapper` runs it through another program (`ip netns exec NS`, which execs it in place).
    public init(_ arguments: [String] = [], wrapper: [String] = []) throws {
        process = Process()
        let command = wrapper + [ServerProcess.serverPath] + (arguments.contains("--port") ? [] : ["--port", "0"]) + arguments
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        let handle = output.fileHandleForReading
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
        guard text.hasPrefix("listening on "), let url = URL(string: String(text.dropFirst("listening on ".count))) else {
            process.terminate()
            throw ServerProcess.StartFailure(description: "conn-server \(arguments.joined(separator: " ")) did not start: \(text)")
        }
        self.url = url
        // Keep draining stdout so the server never blocks on a full pipe.
        handle.readabilityHandler = { $0.availableData.isEmpty ? ($0.readabilityHandler = nil) : () }
    }

    public var port: Int { url.port ?? 0 }

    public func signal(_ number: Int32) { kill(pid, number) }

    /// SIGTERM, then waits for the process to end.
    public func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    deinit {
        if process.isRunning {
            kill(pid, SIGCONT)
            kill(pid, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// The server's inbox (GET /inbox through curl), as decoded JSON e-mails.
    public func inbox(token: String? = nil) throws -> [[String: Any]] {
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        // --retry: a server started with --fail-rate fails GET /inbox too (5xx are retried).
        curl.arguments = ["-sS", "--fail", "--max-time", "30", "--retry", "20", "--retry-delay", "1"] + (token.map { ["-H", "Authorization: Bearer \($0)"] } ?? []) + [url.absoluteString + "/inbox"]
        let output = Pipe()
        curl.standardOutput = output
        try curl.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        curl.waitUntilExit()
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return object?["inbox"] as? [[String: Any]] ?? []
    }
}
