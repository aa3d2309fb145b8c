import Synchronization

/// The internet check of a monitor's looks, run beside the targets instead of in front of their
/// verdict. Many networks drop the traffic of the default check (1.1.1.1, connectivitycheck…):
/// waiting for it held every verdict on the configured server for the check's whole deadline
/// (5 s late to see the server die, 6 s late to see it return). Now a look is judged as soon as
/// its targets are; a check that has not answered by then goes on alone, and its end asks for
/// the next look (`onSettled`), which shows what it found and starts no check of its own.
/// One check runs at a time, however many looks start meanwhile.
final class InternetLookout: Sendable {
    private struct State {
        var running = false
        /// A finished check's verdict that no look has shown yet.
        var unread: InternetVerdict?
        /// Called once when the running check ends (set by the last look that ended without it).
        var onSettled: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    /// What a look shows of the internet: the verdict, or nil while the check still runs (`pending`).
    struct Reading {
        var verdict: InternetVerdict?
        var pending: Bool
    }

    /// The start of a look: a verdict that ended since the last look is taken, and no check
    /// starts; otherwise `check` starts unless one runs. It runs in a task of its own: the
    /// look's cancellation (a newer look began) does not end it.
    func begin(_ check: @escaping @Sendable () async -> InternetVerdict) -> InternetVerdict? {
        enum Step { case taken(InternetVerdict), joined, started }
        let step = state.withLock { state -> Step in
            if let unread = state.unread {
                state.unread = nil
                return .taken(unread)
            }
            if state.running { return .joined }
            state.running = true
            return .started
        }
        switch step {
        case .taken(let verdict):
            return verdict
        case .joined:
            return nil
        case .started:
            Task { [self] in
                let verdict = await check()
                let settled = self.state.withLock { state -> (@Sendable () -> Void)? in
                    state.running = false
                    state.unread = verdict
                    defer { state.onSettled = nil }
                    return state.onSettled
                }
                settled?()
            }
            return nil
        }
    }

    /// The end of a look whose `begin` took nothing, once its targets are judged: the check's
    /// verdict if it has ended meanwhile, else `pending`, and `onSettled` is called when it ends.
    func end(onSettled: @escaping @Sendable () -> Void) -> Reading {
        state.withLock { state in
            if let unread = state.unread {
                state.unread = nil
                return Reading(verdict: unread, pending: false)
            }
            guard state.running else { return Reading(verdict: nil, pending: false) }
            state.onSettled = onSettled
            return Reading(verdict: nil, pending: true)
        }
    }
}
