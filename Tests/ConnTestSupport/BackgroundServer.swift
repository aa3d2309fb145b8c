import ConnCore
import Foundation

/// A conn-server the test can signal: stop it (SIGSTOP) to freeze it mid-request, continue it,
/// kill it, and restart it on the same port. The one way tests start conn-server;
/// `ServerProcess.with` is its scoped form.
public final class BackgroundServer: @unchecked Sendable {
    public let process: SpawnedProcess
    public let url: URL
    public var pid: Int32 { process.processIdentifier }

    private init(process: SpawnedProcess, url: URL) {
        self.process = process
        self.url = url
    }

    /// Starts `conn-server ARGS…` (with `--port 0` unless ARGS name a port), `environment` added
    /// to the test process's own, and waits for its `listening on URL` line without holding a
    /// thread. `wrapper` runs it through another program (`ip netns exec NS`, which execs it in
    /// place).
    public static func start(_ arguments: [String] = [], environment: [String: String] = [:], wrapper: [String] = []) async throws -> BackgroundServer {
        let command = wrapper + [ServerProcess.serverPath] + (arguments.contains("--port") ? [] : ["--port", "0"]) + arguments
        let process = try SpawnedProcess(command[0], Array(command.dropFirst()),
                                         environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
                                         output: .pipe)
        let firstLine = FirstLine()
        // Reads the first line, then keeps draining stdout so the server never blocks on a full pipe.
        process.standardOutput?.readabilityHandler = { handle in
            let chunk = handle.availableData
            firstLine.feed(chunk)
            if chunk.isEmpty { handle.readabilityHandler = nil }
        }
        let text = await firstLine.value()
        guard text.hasPrefix("listening on "), let url = URL(string: String(text.dropFirst("listening on ".count))) else {
            process.terminate()
            throw ServerProcess.StartFailure(description: "conn-server \(arguments.joined(separator: " ")) did not start: \(text)")
        }
        return BackgroundServer(process: process, url: url)
    }

    public var port: Int { url.port ?? 0 }

    public func signal(_ number: Int32) { process.signal(number) }

    /// SIGTERM, then waits for the process to end, without holding a thread (conn-server's
    /// graceful shutdown can take a while, and tests share a small pool).
    public func stop() async {
        process.terminate()
        await process.exited()
    }

    /// A server the test did not stop: SIGKILL (continued first, in case it was stopped), and
    /// the moment it takes to die, so its port is free when this returns.
    deinit {
        guard process.isRunning else { return }
        process.signal(SIGCONT)
        process.signal(SIGKILL)
        process.waitForExit(killingAfter: 10)
    }

    /// The server's inbox (GET /inbox through curl), as decoded JSON e-mails. Async: curl's
    /// retries can take seconds, and a blocking wait would hold one of the test process's few
    /// executor threads meanwhile.
    public func inbox(token: String? = nil) async throws -> [[String: Any]] {
        // --retry: a server started with --fail-rate fails GET /inbox too (5xx are retried).
        let arguments = ["-sS", "--fail", "--max-time", "30", "--retry", "20", "--retry-delay", "1"]
            + (token.map { ["-H", "Authorization: Bearer \($0)"] } ?? []) + [url.absoluteString + "/inbox"]
        let fetched = try await ConnProcess.run("/usr/bin/curl", arguments, environment: ["PATH": "/usr/bin:/bin"])
        let object = try JSONSerialization.jsonObject(with: Data(fetched.standardOutput.utf8)) as? [String: Any]
        return object?["inbox"] as? [[String: Any]] ?? []
    }
}

/// The first line a process writes (or all it wrote, if it ended first), handed to one waiter.
private final class FirstLine: @unchecked Sendable {
    private let lock = NSLock()
    private var buffer = Data()
    private var line: String?
    private var waiter: CheckedContinuation<String, Never>?

    func feed(_ chunk: Data) {
        let ready: (CheckedContinuation<String, Never>, String)? = lock.withLock {
            guard line == nil else { return nil }
            buffer.append(chunk)
            guard chunk.isEmpty || buffer.contains(UInt8(ascii: "\n")) else { return nil }
            let text = String(decoding: buffer, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
            line = text
            defer { waiter = nil }
            return waiter.map { ($0, text) }
        }
        if let (waiter, text) = ready { waiter.resume(returning: text) }
    }

    func value() async -> String {
        await withCheckedContinuation { continuation in
            let ready: String? = lock.withLock {
                if let line { return line }
                waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
