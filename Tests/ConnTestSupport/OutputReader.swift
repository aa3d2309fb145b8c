import Foundation

/// A child's output pipe read without holding a thread: the descriptor is made non-blocking and
/// read whenever the test looks, between short sleeps. A blocking read (`availableData`,
/// `readDataToEndOfFile`) in an async test holds one of the test run's few executor threads;
/// two such reads at once starved every other suite (a 300 ms deadline was seen after 32 s).
/// Not a readabilityHandler: its dispatch source never reported the end of a pipe whose data
/// and end came at once (a child that prints and exits at once).
public final class OutputReader: @unchecked Sendable {
    private let lock = NSLock()
    private var buffer = Data()
    private var ended = false
    private let handle: FileHandle

    public init(_ handle: FileHandle) {
        self.handle = handle
        let descriptor = handle.fileDescriptor
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    /// Reads what the pipe holds now; notes its end.
    private func pump() -> (text: String, ended: Bool) {
        lock.withLock {
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while !ended {
                let count = read(handle.fileDescriptor, &chunk, chunk.count)
                if count > 0 { buffer.append(contentsOf: chunk[0..<count]); continue }
                if count == 0 { ended = true } else if errno == EINTR { continue }
                // EAGAIN: nothing more for now; any other error ends the reading too.
                if count < 0 && errno != EAGAIN && errno != EWOULDBLOCK { ended = true }
                break
            }
            return (String(decoding: buffer, as: UTF8.self), ended)
        }
    }

    /// What has been read so far.
    public var text: String { pump().text }

    /// Waits up to `seconds` until `predicate` holds for the text read so far, or the pipe ends;
    /// the text then.
    @discardableResult
    public func wait(_ seconds: Double = 30, until predicate: @escaping (String) -> Bool) async -> String {
        _ = await poll(for: seconds, every: .milliseconds(20)) { () -> Bool? in
            let (text, ended) = self.pump()
            return predicate(text) || ended ? true : nil
        }
        return text
    }

    /// Waits up to `seconds` for the end of the pipe (the writer closed it or exited); the text.
    @discardableResult
    public func toEnd(within seconds: Double = 30) async -> String {
        await wait(seconds) { _ in false }
    }

    /// Closes the pipe, as a reader such as `head -1` does.
    public func close() throws {
        try lock.withLock { try handle.close() }
    }
}
