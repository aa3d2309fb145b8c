import ConnCommandKit
import ConnCore
import Foundation

/// What `conn send` and `conn request` do with the item they write to the outbox, in one place:
/// queue it while the outbox is paused, or commit it and try it once (with --wait, until it is
/// through or the time is up), hand what is left to the running agent, and say what became of it
/// — nothing when it went through; else one stderr line saying why and who delivers it next, or
/// the error that ends the command (rejected, refused credentials, expired, waited in vain).
public struct FirstAttempt: Sendable {
    /// "message" or "request".
    let noun: String
    /// "sent" or "delivered".
    let done: String
    /// "the server" or "its server": whose reachability delivery waits for.
    let server: String
    /// The error and hint of an item the server refused, by its short id.
    let refused: @Sendable (_ shortID: String, _ reason: String) -> (message: String, hint: String)

    public static let message = FirstAttempt(noun: "message", done: "sent", server: "the server") { id, reason in
        ("the server rejected message \(id): \(reason)", "`conn outbox delete \(id)`, then send a corrected message.")
    }

    public static let request = FirstAttempt(noun: "request", done: "delivered", server: "its server") { id, reason in
        ("the server refused request \(id): \(reason)",
         "`conn outbox show \(id)` has the answer; `conn outbox resend` tries it again, `conn outbox delete` drops it.")
    }

    /// A short first attempt (the item is already safe, so a slow network should not hold the
    /// prompt), unless a timeout was configured: that is honoured as given.
    public static func timeout(_ configuration: ConnConfiguration) -> Duration {
        configuration.sources["timeout"] == .defaultValue ? min(configuration.timeout, .seconds(5)) : configuration.timeout
    }

    /// The outbox is paused for refused credentials: the item just queued is said to wait (a
    /// warning; safely queued is a success), or, when --wait asked for delivery, which cannot
    /// happen, the command ends 77.
    public func paused(_ item: OutboxMessage, by pause: AuthPause, context: CommandContext, waited: Bool) throws {
        let why = pause.byProxy ? "the proxy wants credentials" : "the server refused the credentials"
        let paused = "\(noun) \(item.shortID) is queued but not sent: the outbox is paused since \(why) (\(TerminalSanitizer.sanitize(pause.message, keepNewlines: false)))"
        let hint = AuthPause.hint(byProxy: pause.byProxy, then: "`conn outbox resend --failed`")
        guard waited else {
            context.printer.warning(paused)
            context.printer.note(hint)
            return
        }
        throw ConnError(code: .authRefused, message: paused, hint: hint, exitStatus: .permission)
    }

    /// Commits the item (`enqueue`, leased to `deliverer`, before any request: from then on it
    /// cannot be lost), tries it once, and with `wait` goes on until it is through or the wait,
    /// counted from `start`, is over (a spinner on a terminal). Returns the item as it stands.
    public func attempt(with deliverer: OutboxDeliverer, wait: Duration?, from start: ContinuousClock.Instant, context: CommandContext,
                        enqueue: (OutboxDeliverer) throws -> OutboxMessage) async throws -> OutboxMessage {
        let store = deliverer.store
        let queued = try enqueue(deliverer)
        try deliverer.record([await deliverer.attempt(queued)])
        var current = try store.message(id: queued.id) ?? queued
        guard current.state == .pending, let wait else { return current }
        let spinner = Spinner(context, limit: wait)
        defer { spinner.stop() }
        let waiting = { (item: OutboxMessage) in
            "\(item.shortID) not \(done) yet (\(TerminalSanitizer.sanitize(item.lastError ?? "", keepNewlines: false))); retrying"
        }
        if spinner.isEnabled { spinner.show(waiting(current)) } else { context.printer.note(waiting(current) + " for up to \(TimeFormatting.duration(wait))") }
        var retrying = deliverer
        retrying.requestTimeout = context.configuration.timeout
        current = try await retrying.settle(queued.id, until: start + wait) { spinner.show(waiting($0)) } ?? current
        return current
    }

    /// An item left waiting is the running agent's from now on: handed over so it takes over at
    /// once. The agent's pid, or nil when none runs (or the item is not waiting).
    public static func handOver(_ item: OutboxMessage, context: CommandContext) -> Int32? {
        guard item.state == .pending, let agent = context.runningAgent else { return nil }
        _ = AgentClient.ask(.wake(handingOver: [item.id]), at: context.agentPlace)
        return agent
    }

    /// Says on stderr why the item is not through, and picks the exit status.
    public func explain(_ item: OutboxMessage, context: CommandContext, waited: Bool, agent: Int32?) throws {
        let reason = TerminalSanitizer.sanitize(item.lastError ?? "", keepNewlines: false)
        let id = item.shortID
        switch item.state {
        case .sent:
            return
        case .pending, .sending:
            if waited {
                throw ConnError.temporary(.stillWaiting, "\(noun) \(id) is still waiting: \(reason)", hint: "It stays queued; `conn outbox flush` delivers it later.")
            }
            let queued = "\(noun) \(id) is queued, not \(done) yet: \(reason)."
            if let agent {
                context.printer.note("\(queued) The agent (pid \(agent)) delivers it when \(server) is reachable.")
            } else if CommandSession.replDelivers {
                context.printer.note("\(queued) This REPL delivers it when \(server) is reachable.")
            } else {
                context.printer.note("\(queued) No agent is running: `conn outbox flush` sends it now, `conn agent` keeps trying.")
            }
        case .failed:
            switch item.failureReason {
            case .auth:
                let byProxy = item.lastErrorCode == ErrorCode.proxyAuthRequired.rawValue
                throw ConnError(code: byProxy ? .proxyAuthRequired : .authRefused, message: "\(noun) \(id) was refused: \(reason); the outbox is paused",
                                hint: AuthPause.hint(byProxy: byProxy, then: "`conn outbox resend \(id)`"), exitStatus: .permission)
            case .expired:
                throw ConnError.temporary(.expired, "\(noun) \(id) expired: \(reason)", hint: "`conn outbox resend \(id)` tries again.")
            case .rejected, nil:
                let (message, hint) = refused(id, reason)
                throw ConnError.dataError(.rejected, message, hint: hint)
            }
        }
    }
}
