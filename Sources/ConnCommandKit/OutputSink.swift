import Foundation
import Synchronization

/// The two streams a command writes to.
public enum OutputStreamKind: Sendable {
    /// Data: what the command was asked for.
    case standardOutput
    /// Diagnostics: errors, warnings, progress, logs.
    case standardError
}

/// Where a command's text goes. Commands never print directly, so tests can capture output.
public protocol OutputSink: Sendable {
    func write(_ text: String, to stream: OutputStreamKind)
}

/// The process's real stdout and stderr, written unbuffered (write(2)) so JSON Lines reach a
/// pipe line by line and stdout and stderr interleave in the order they were written.
///
/// conn ignores SIGPIPE (a hook or plugin that exits early must not kill it), so a reader that
/// closes stdout (`conn watch | head -1`) shows up here as EPIPE: conn then ends as SIGPIPE would
/// have ended it, with status 141, instead of running on with nobody listening.
public struct StandardOutputSink: OutputSink {
    public init() {}

    public func write(_ text: String, to stream: OutputStreamKind) {
        let descriptor = stream == .standardOutput ? STDOUT_FILENO : STDERR_FILENO
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE, stream == .standardOutput { Foundation.exit(128 + SIGPIPE) }
                return  // stderr closed: nothing more can be said
            }
            bytes = bytes.dropFirst(written)
        }
    }
}

/// Collects what a command prints, for tests.
public final class CapturingOutputSink: OutputSink {
    private let buffers = Mutex<(out: String, err: String)>(("", ""))

    public init() {}

    public func write(_ text: String, to stream: OutputStreamKind) {
        buffers.withLock {
            if stream == .standardOutput { $0.out += text } else { $0.err += text }
        }
    }

    public var standardOutput: String { buffers.withLock { $0.out } }
    public var standardError: String { buffers.withLock { $0.err } }
}
