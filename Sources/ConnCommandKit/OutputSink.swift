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
    /// Bytes exactly as they are (a body `conn get` fetched); a sink of text takes them as UTF-8.
    func write(bytes: Data, to stream: OutputStreamKind)
    /// Whether long text results may go through a pager here.
    var pages: Bool { get }
    /// Shows a text result through `pager` instead of writing it; false when that could not be
    /// done (the caller then writes the text).
    func page(_ text: String, with pager: Pager, environment: [String: String]) -> Bool
}

extension OutputSink {
    public func write(bytes: Data, to stream: OutputStreamKind) {
        write(String(decoding: bytes, as: UTF8.self), to: stream)
    }

    public var pages: Bool { false }
    public func page(_ text: String, with pager: Pager, environment: [String: String]) -> Bool { false }
}

/// The process's real stdout and stderr, written unbuffered (write(2)) so JSON Lines reach a
/// pipe line by line and stdout and stderr interleave in the order they were written.
///
/// conn ignores SIGPIPE (a hook or plugin that exits early must not kill it), so a reader that
/// closes stdout (`conn watch | head -1`) shows up here as EPIPE: conn then ends as SIGPIPE would
/// have ended it, with status 141, instead of running on with nobody listening.
public struct StandardOutputSink: OutputSink {
    public init() {}

    public var pages: Bool { true }

    public func page(_ text: String, with pager: Pager, environment: [String: String]) -> Bool {
        pager.show(text, environment: environment)
    }

    public func write(_ text: String, to stream: OutputStreamKind) {
        write(Array(text.utf8)[...], to: stream)
    }

    public func write(bytes: Data, to stream: OutputStreamKind) {
        write(Array(bytes)[...], to: stream)
    }

    private func write(_ bytes: ArraySlice<UInt8>, to stream: OutputStreamKind) {
        let descriptor = stream == .standardOutput ? STDOUT_FILENO : STDERR_FILENO
        var bytes = bytes
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

/// Collects what a command prints, for tests; with `pages`, also what it would have shown
/// through the pager (the pager's command and the text), instead of running it.
public final class CapturingOutputSink: OutputSink {
    private let buffers = Mutex<(out: String, err: String)>(("", ""))
    private let pagedTexts = Mutex<[(command: String, text: String)]>([])
    public let pages: Bool

    public init(pages: Bool = false) {
        self.pages = pages
    }

    public func page(_ text: String, with pager: Pager, environment: [String: String]) -> Bool {
        guard pages else { return false }
        pagedTexts.withLock { $0.append((pager.command, text)) }
        return true
    }

    /// Each text result shown through the pager, with the pager's command.
    public var paged: [(command: String, text: String)] { pagedTexts.withLock { $0 } }

    public func write(_ text: String, to stream: OutputStreamKind) {
        buffers.withLock {
            if stream == .standardOutput { $0.out += text } else { $0.err += text }
        }
    }

    public var standardOutput: String { buffers.withLock { $0.out } }
    public var standardError: String { buffers.withLock { $0.err } }
}
