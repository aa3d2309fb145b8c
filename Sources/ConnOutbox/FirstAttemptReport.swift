import ConnCommandKit
import ConnCore
import Foundation

/// What `conn send` and `conn request` say about an item they queued and tried once (or waited
/// for): nothing when it went through; else one stderr line saying why and who delivers it
/// next, or the error that ends the command (rejected, refused credentials, expired, waited in
/// vain).
public struct FirstAttemptReport: Sendable {
    /// "message" or "request".
    let noun: String
    /// "sent" or "delivered".
    let done: String
    /// "the server" or "its server": whose reachability delivery waits for.
    let server: String
    /// The error and hint of an item the server refused, by its short id.
    let refused: @Sendable (_ shortID: String, _ reason: String) -> (message: String, hint: String)

    public static let message = FirstAttemptReport(noun: "message", done: "sent", server: "the server") { id, reason in
        ("the server rejected message \(id): \(reason)", "`conn outbox delete \(id)`, then send a corrected message.")
    }

    public static let request = FirstAttemptReport(noun: "request", done: "delivered", server: "its server") { id, reason in
        ("the server refused request \(id): \(reason)",
         "`conn outbox show \(id)` has the answer; `conn outbox resend` tries it again, `conn outbox delete` drops it.")
    }

    /// A short first attempt (the item is already safe, so a slow network should not hold the
    /// prompt), unless a timeout was configured: that is honoured as given.
    public static func timeout(_ configuration: ConnConfiguration) -> Duration {
        configuration.sources["timeout"] == .defaultValue ? min(configuration.timeout, .seconds(5)) : configuration.timeout
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
