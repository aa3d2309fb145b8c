import Foundation
import NIOCore
import Synchronization

/// Where an answer's body goes instead of memory: a file with no name (made and unlinked at
/// once, so a crash or a kill -9 leaves nothing behind), for an answer that may be larger than
/// a command should hold — a million-message inbox is 430 MB. Written by one request at a time.
public final class ResponseBodyFile: @unchecked Sendable {
    /// The open file. Closed when this object goes.
    public let descriptor: Int32
    private let written = Mutex(0)
    private let directory: String

    /// A file in `directory` (created if missing): put it beside what it will be stored in,
    /// on the disk that has room for it.
    public init(in directory: String) throws {
        try ConnPaths.ensureDirectory(directory)
        var template = Array((directory + "/.conn-download-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw ConnError(code: .directoryUnavailable, message: "cannot make a download file in \(directory): \(String(cString: strerror(errno)))",
                            hint: "Check that you may write to that directory.", exitStatus: .ioError)
        }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        unlink(path)
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)  // not handed to a hook or a plugin
        self.descriptor = descriptor
        self.directory = directory
    }

    deinit { close(descriptor) }

    /// The bytes written since the last `reset`.
    public var size: Int { written.withLock { $0 } }

    /// Empties the file: a redirect's body is not the answer's.
    public func reset() throws {
        guard ftruncate(descriptor, 0) == 0, lseek(descriptor, 0, SEEK_SET) == 0 else { throw failure("empty") }
        written.withLock { $0 = 0 }
    }

    /// Appends `buffer`'s readable bytes.
    public func append(_ buffer: ByteBuffer) throws {
        try buffer.withUnsafeReadableBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let count = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    throw failure("write to")
                }
                offset += count
            }
        }
        written.withLock { $0 += buffer.readableBytes }
    }

    private func failure(_ verb: String) -> ConnError {
        let reason = errno
        if reason == ENOSPC || reason == EDQUOT {
            let free = StorageFailure.freeBytes(besides: directory + "/download").map { "\($0) bytes free on \(directory)" } ?? "on \(directory)"
            return ConnError(code: .diskFull, message: "the disk is full (\(free)): the answer was not downloaded, and nothing was stored",
                             hint: "Free some space, then run the command again.", exitStatus: .ioError)
        }
        return ConnError(code: .ioError, message: "cannot \(verb) the download file in \(directory): \(String(cString: strerror(reason)))",
                         hint: "Check the disk; then run the command again.", exitStatus: .ioError)
    }
}
