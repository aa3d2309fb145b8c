import Dispatch
import Foundation

/// The agent's signals, caught once for the life of the process and passed to whichever loop
/// runs. Each loop cannot catch them itself: on Linux, a dispatch signal source made after an
/// earlier one for the same signal was cancelled never fires (found when SIGHUP re-reads: the
/// loop after it never saw SIGTERM). A signal that comes while no loop listens (the hand-over
/// of a re-read) waits for the next one.
final class SignalRelay: Sendable {
    /// Only made in init and cancelled in deinit.
    nonisolated(unsafe) private let sources: [any DispatchSourceSignal]
    private let relay = Relay<Int32>()

    init(_ numbers: [Int32]) {
        for number in numbers { signal(number, SIG_IGN) }
        let relay = self.relay
        sources = numbers.map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { relay.deliver(number) }
            source.resume()
            return source
        }
    }

    /// From now on, signals go to `handler` (first those that came while none listened);
    /// nil: they wait.
    func listen(_ handler: (@Sendable (Int32) -> Void)?) {
        relay.listen(handler)
    }

    deinit { sources.forEach { $0.cancel() } }
}
