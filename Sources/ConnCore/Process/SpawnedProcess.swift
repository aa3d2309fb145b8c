import CSpawn
import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A child process started with posix_spawn, in place of Foundation's `Process`: Foundation
/// closes the descriptors a child would inherit by listing /proc/self/fd, and that code crashes
/// (SIGSEGV) in a process holding more than about 1,300 descriptors (swift-corelibs-foundation
/// PR 5472, not in Swift 6.3.1). Here the child closes everything above stderr with closefrom,
/// starts with no signal blocked and the usual signals at their defaults, and is reaped through
/// a pidfd, so no thread waits for it.
public final class SpawnedProcess: @unchecked Sendable {
    /// Where one of the child's standard streams goes.
    public enum Stream: Sendable {
        /// /dev/null.
        case null
        /// The parent's own.
        case inherit
        /// A new pipe; the parent's end is `standardInput`, `standardOutput` or `standardError`.
        case pipe
        /// This descriptor (duplicated into place; the caller keeps and closes its own).
        case descriptor(Int32)
    }

    public enum TerminationReason: Sendable, Equatable {
        case exit
        case uncaughtSignal
    }

    public struct SpawnFailure: Error, CustomStringConvertible {
        public let executable: String
        public let errno: Int32
        public var description: String { "could not start \(executable): \(String(cString: strerror(errno)))" }
    }

    public let processIdentifier: Int32
    /// The write end of the child's stdin (`.pipe` only).
    public let standardInput: FileHandle?
    /// The read ends of the child's stdout and stderr (`.pipe` only).
    public let standardOutput: FileHandle?
    public let standardError: FileHandle?

    private let lock = NSLock()
    private var status: (reason: TerminationReason, code: Int32)?
    private var exitHandlers: [@Sendable (SpawnedProcess) -> Void] = []
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var exitSource: (any DispatchSourceRead)?

    private static let reaping = DispatchQueue(label: "conn.spawned-process.reaping")

    /// Starts `executable` with `arguments` (argv[0] is the executable) and `environment` (nil:
    /// the parent's).
    public init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                input: Stream = .null, output: Stream = .null, error: Stream = .null) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var parentEnds: [Int32?] = [nil, nil, nil]
        var childEnds: [Int32] = []
        for (target, stream) in [(STDIN_FILENO, input), (STDOUT_FILENO, output), (STDERR_FILENO, error)] {
            switch stream {
            case .null:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == STDIN_FILENO ? O_RDONLY : O_WRONLY, 0)
            case .inherit:
                break
            case .descriptor(let descriptor):
                posix_spawn_file_actions_adddup2(&actions, descriptor, target)
            case .pipe:
                guard let ends = CloseOnExecPipe.make() else {
                    let failure = errno
                    (parentEnds.compactMap { $0 } + childEnds).forEach { close($0) }
                    throw SpawnFailure(executable: executable, errno: failure)
                }
                let (parentEnd, childEnd) = target == STDIN_FILENO ? (ends.write, ends.read) : (ends.read, ends.write)
                parentEnds[Int(target)] = parentEnd
                childEnds.append(childEnd)
                posix_spawn_file_actions_adddup2(&actions, childEnd, target)
            }
        }
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Every signal at its default: a test process (or conn) ignores some, and a child that
        // inherited that would not stop on them.
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var noneBlocked = sigset_t()
        sigemptyset(&noneBlocked)
        posix_spawnattr_setsigmask(&attributes, &noneBlocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let (pid, started) = PosixSpawn.spawn(executable, argv: [executable] + arguments,
                                              environment: environment ?? ProcessEnvironment.current(),
                                              actions: &actions, attributes: &attributes)
        childEnds.forEach { close($0) }
        guard started == 0 else {
            parentEnds.compactMap { $0 }.forEach { close($0) }
            throw SpawnFailure(executable: executable, errno: started)
        }
        processIdentifier = pid
        standardInput = parentEnds[0].map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
        standardOutput = parentEnds[1].map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
        standardError = parentEnds[2].map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
        watchForExit()
    }

    /// A pidfd becomes readable when the child ends; the handler reaps it. Without pidfds (a
    /// kernel before 5.3) a thread waits instead.
    private func watchForExit() {
        let pid = processIdentifier
        let descriptor = pidfd_open(pid, 0)
        guard descriptor >= 0 else {
            Thread.detachNewThread { self.reap(blocking: true) }
            return
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: Self.reaping)
        // The source keeps the object alive until the child has ended, as Foundation's does.
        source.setEventHandler { self.reap(blocking: false) }
        source.setCancelHandler { close(descriptor) }
        lock.withLock { exitSource = source }
        source.resume()
    }

    private func reap(blocking: Bool) {
        var raw: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(processIdentifier, &raw, blocking ? 0 : WNOHANG) } while result < 0 && errno == EINTR
        if result == 0 { return }  // not yet (a spurious wake-up)
        let ended: (TerminationReason, Int32)
        if result < 0 {
            ended = (.uncaughtSignal, SIGKILL)  // reaped by someone else: its status is lost
        } else if raw & 0x7f == 0 {
            ended = (.exit, (raw >> 8) & 0xff)
        } else {
            ended = (.uncaughtSignal, raw & 0x7f)
        }
        let (handlers, waiting, source) = lock.withLock {
            status = ended
            defer { exitHandlers = []; waiters = []; exitSource = nil }
            return (exitHandlers, waiters, exitSource)
        }
        source?.cancel()
        handlers.forEach { $0(self) }
        waiting.forEach { $0.resume() }
    }

    public var isRunning: Bool { lock.withLock { status == nil } }

    /// The exit code, or the number of the signal that ended it (as Foundation's `Process`);
    /// 0 while it runs.
    public var terminationStatus: Int32 { lock.withLock { status?.code ?? 0 } }

    public var terminationReason: TerminationReason { lock.withLock { status?.reason ?? .exit } }

    /// Calls `handler` once the child has ended (at once if it has).
    public func onExit(_ handler: @escaping @Sendable (SpawnedProcess) -> Void) {
        let ended = lock.withLock {
            if status != nil { return true }
            exitHandlers.append(handler)
            return false
        }
        if ended { handler(self) }
    }

    public func terminate() { signal(SIGTERM) }

    public func interrupt() { signal(SIGINT) }

    /// Sends `number` while the child runs (never to a reaped pid, which may be reused).
    public func signal(_ number: Int32) {
        lock.withLock { if status == nil { _ = kill(processIdentifier, number) } }
    }

    /// Waits for the end without holding a thread; its `terminationStatus`. One still running
    /// after `limit` seconds is killed (SIGKILL: the status is then 9, never 0).
    @discardableResult
    public func exited(killingAfter limit: Double = 120) async -> Int32 {
        let ended = Task {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let done = lock.withLock {
                    if status != nil { return true }
                    waiters.append(continuation)
                    return false
                }
                if done { continuation.resume() }
            }
        }
        let killer = Task {
            try await Task.sleep(for: .seconds(limit))
            signal(SIGKILL)
        }
        await ended.value
        killer.cancel()
        return terminationStatus
    }

    /// The same for synchronous code: sleeps between looks.
    @discardableResult
    public func waitForExit(killingAfter limit: Double = 120) -> Int32 {
        let deadline = Date().addingTimeInterval(limit)
        while isRunning, Date() < deadline { usleep(5_000) }
        if isRunning {
            signal(SIGKILL)
            while isRunning { usleep(5_000) }
        }
        return terminationStatus
    }
}
