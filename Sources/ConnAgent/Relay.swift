import Synchronization

/// Values handed to whichever loop listens, in the order they came; those that come while no
/// loop listens (the hand-over of a SIGHUP re-read) wait for the next one. What outlives a loop
/// (the signal sources, the live session, the control socket) delivers through one of these, so
/// a re-read does not have to make it again.
final class Relay<Value: Sendable>: Sendable {
    private struct Listening {
        var handler: (@Sendable (Value) -> Void)?
        var waiting: [Value] = []
    }

    private let listening = Mutex(Listening())

    init() {}

    /// From now on, values go to `handler` (first those that waited); nil: they wait.
    /// The handler is called under the relay's lock, so it must only hand the value on.
    func listen(_ handler: (@Sendable (Value) -> Void)?) {
        listening.withLock { state in
            state.handler = handler
            guard let handler else { return }
            state.waiting.forEach(handler)
            state.waiting = []
        }
    }

    func deliver(_ value: Value) {
        listening.withLock { state in
            if let handler = state.handler { handler(value) } else { state.waiting.append(value) }
        }
    }

    /// The values waiting for a listener, taken out (what came in as the agent stopped).
    func drain() -> [Value] {
        listening.withLock { state in
            defer { state.waiting = [] }
            return state.waiting
        }
    }
}
