import Foundation
import Synchronization

/// SIGINT and SIGTERM for a command that repeats until stopped: caught (not the default
/// death), so the sample in hand is finished, and the waits between rounds end at once.
final class StopSignal: @unchecked Sendable {  // `sources`: set in init, cancelled in remove, by the command's task only
    private let state = Mutex<(received: Int32?, waiter: CheckedContinuation<Void, Never>?)>((nil, nil))
    private var sources: [any DispatchSourceSignal] = []

    /// `installing`: false inside the REPL (its Ctrl-C cancels the command) or for one round.
    init(installing: Bool) {
        guard installing else { return }
        sources = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in self?.receive(number) }
            source.resume()
            return source
        }
    }

    /// The signal that stopped it, if one did.
    var received: Int32? { state.withLock { $0.received } }

    private func receive(_ number: Int32) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.received == nil { state.received = number }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Waits `duration`, or less when a signal comes (or the task is cancelled); true when stopped.
    func sleep(_ duration: Duration) async -> Bool {
        if received != nil || Task.isCancelled { return true }
        let timer = Task { [weak self] in
            try? await Task.sleep(for: duration)
            self?.wake()
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state -> Bool in
                    if state.received != nil { return true }
                    state.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: { [weak self] in self?.wake() }
        timer.cancel()
        return received != nil || Task.isCancelled
    }

    private func wake() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Gives the signals back their default action.
    func remove() {
        let installed = sources
        sources = []
        for source in installed { source.cancel() }
        if !installed.isEmpty { for number in [SIGINT, SIGTERM] { signal(number, SIG_DFL) } }
    }
}
