import Foundation

/// A conn-server the test can signal: stop it (SIGSTOP) to freeze it mid-request, continue it,
/// kill it, and restart it on the same port. The one way tests start conn-server;
/// `ServerProcess.with` is its scoped form.
public final class BackgroundServer: @unchecked Sendable {
    public let process: Process
    public let url: URL
    public var pid: Int32 { process.processIdentifier }
    private let exit: ExitSignal

    private init(process: Process, url: URL, exit: ExitSignal) {
        self.process = process
        self.url = url
        self.exit = exit
    }

    /// Starts `conn-server ARGS…` (with `--port 0` unless ARGS name a port), `environment` added
    /// to the test process's own, and waits for its `listening on URL` line without holding a
    /// thread. `wrapper` runs it through another program (`ip netns exec NS`, which execs it in
    /// place).
    public static func start(_ arguments: [String] = [], environment: [String: String] = [:], wrapper: [String] = []) async throws -> BackgroundServer {
        let process = Process()
        let command = wrapper + [ServerProcess.serverPath] + (arguments.contains("--port") ? [] : ["--port", "0"]) + arguments
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let firstLine = FirstLine()
        let exit = ExitSignal()
        process.terminationHandler = { _ in exit.fire() }
        // Reads the first line, then keeps draining stdout so the server never blocks on a full pipe.
        output.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            firstLine.feed(chunk)
            if chunk.isEmpty { handle.readabilityHandler = nil }
        }
        try process.run()
        let text = await firstLine.value()
        guard text.hasPrefix("listening on "), let url = URL(string: String(text.dropFirst("listening on ".count))) else {
            process.terminate()
            throw ServerProcess.StartFailure(description: "conn-server \(arguments.joined(separator: " ")) did not start: \(text)")
        }
        return BackgroundServer(process: process, url: url, exit: exit)
    }

    public var port: Int { url.port ?? 0 }

    public func signal(_ number: Int32) { kill(pid, number) }

    /// SIGTERM, then waits for the process to end.
    /// SIGTERM, then waits for the process to end, without holding a thread (conn-server's
    /// graceful shutdown can take a while, and tests share a small pool).
    public func stop() async {
        if process.isRunning { process.terminate() }
        await exit.wait()
    }

    deinit {
        if process.isRunning {
            kill(pid, SIGCONT)
            kill(pid, SIGKILL)
            process.waitForExit()
        }
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

/// Fires once, when a process has ended; any number may wait for it, before or after.
private final class ExitSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var fired = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func fire() {
        let waiting: [CheckedContinuation<Void, Never>] = lock.withLock {
            fired = true
            defer { waiters = [] }
            return waiters
        }
        waiting.forEach { $0.resume() }
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let done: Bool = lock.withLock {
                if fired { return true }
                waiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }
}
