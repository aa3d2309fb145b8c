import ConnCore
import Foundation

/// A running process that prints JSON Lines (`conn watch --json`, `conn agent --json`,
/// `conn repl --json`) whose lines can be awaited, and, when started with `input: true`, fed
/// lines on its standard input.
public final class JSONLinesProcess: @unchecked Sendable {
    public let process: SpawnedProcess
    private let lock = NSLock()
    private var buffer = Data()
    private var lines: [[String: Any]] = []
    private var texts: [String] = []

    public init(_ program: String, _ arguments: [String], environment: [String: String], input: Bool = false) throws {
        process = try SpawnedProcess(program, arguments, environment: environment, input: input ? .pipe : .null,
                                     output: .pipe, error: .pipe)
        // Kept (the last 64 KiB): when the process dies, what it said is the diagnosis.
        process.standardError?.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil; return }
            self?.appendError(data)
        }
        process.standardOutput?.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil; return }
            self?.append(data)
        }
    }

    private var errorBuffer = Data()

    private func appendError(_ data: Data) {
        lock.withLock {
            errorBuffer.append(data)
            if errorBuffer.count > 1 << 16 { errorBuffer.removeFirst(errorBuffer.count - (1 << 16)) }
        }
    }

    /// What the process printed on stderr (its last 64 KiB).
    public var errorOutput: String { lock.withLock { String(decoding: errorBuffer, as: UTF8.self) } }

    private func append(_ data: Data) {
        lock.withLock {
            buffer.append(data)
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[buffer.startIndex..<newline]
                buffer.removeSubrange(buffer.startIndex...newline)
                texts.append(String(decoding: line, as: UTF8.self))
                if let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any] { lines.append(object) }
            }
        }
    }

    public var events: [[String: Any]] { lock.withLock { lines } }

    /// Every complete line it printed on stdout so far, as printed, one per line (for a schema
    /// check of the stream).
    public var standardOutput: String { lock.withLock { texts.map { $0 + "\n" }.joined() } }

    /// Writes a line to the process's standard input.
    public func send(_ line: String) throws {
        try process.standardInput?.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Closes its standard input (end of file).
    public func closeInput() throws {
        try process.standardInput?.close()
    }

    /// Waits until an event matches, up to `seconds` (see `poll`); returns it.
    public func await(_ seconds: Double = 30, _ predicate: ([String: Any]) -> Bool) async throws -> [String: Any]? {
        await poll(for: seconds, every: .milliseconds(20)) { events.first(where: predicate) }
    }

    /// Waits until stderr contains `text`, up to `seconds` (see `poll`).
    public func awaitError(_ seconds: Double = 30, containing text: String) async throws -> Bool {
        await poll(for: seconds, every: .milliseconds(20)) { errorOutput.contains(text) ? true : nil } ?? false
    }

    /// SIGTERM, and its exit code; one that has not ended within `seconds` is killed (SIGKILL:
    /// its status is then 9, never 0), so a process that ignores SIGTERM fails its test rather
    /// than hanging the suite.
    public func stop(within seconds: Double = 30) async -> Int32 {
        process.terminate()
        return await process.exited(killingAfter: seconds)
    }

    /// A test that ends without stopping its process: SIGKILL, and no wait. Waiting here held
    /// one of the test process's few executor threads for up to 10 s (a process shutting down
    /// gracefully on a loaded machine), and every other test's timing with it; SpawnedProcess
    /// reaps the child by itself.
    deinit {
        process.signal(SIGKILL)
    }
}
