import ConnCore
import ConnOutbox
import Foundation

/// What a background outbox pass did (`conn watch --flush-outbox`): the `outbox` key of an
/// `outbox` event. JSON keys are part of the output contract.
public struct WatchOutboxSummary: Sendable, Equatable, Encodable {
    public var attempted: Int
    public var sent: Int
    public var retrying: Int
    public var rejected: Int
    public var authRefused: Int
    public var expired: Int
    /// Messages still pending or being sent after the pass.
    public var waiting: Int
    /// When the next waiting message falls due.
    public var nextDueAt: Date?
    /// Why the queue is paused (the server refused the credentials), or why the pass failed.
    public var error: String?

    public init(_ pass: OutboxFlushWorker.Pass) {
        attempted = pass.tally.attempted
        sent = pass.tally.sent
        retrying = pass.tally.retrying
        rejected = pass.tally.rejected
        authRefused = pass.tally.authRefused
        expired = pass.tally.expired
        waiting = pass.waiting
        nextDueAt = pass.nextDue
        error = pass.failure ?? pass.tally.pause.map { "queue paused: \($0.message)" }
    }

    /// `3 sent, 2 waiting (why the pass failed)`, sanitised for a terminal.
    public var line: String {
        let clean = { (text: String) in TerminalSanitizer.sanitize(text, keepNewlines: false) }
        return clean(text) + (error.map { " (\(clean($0)))" } ?? "")
    }

    /// "3 sent, 1 rejected, 2 waiting".
    public var text: String {
        var parts: [String] = []
        for (count, label) in [(sent, "sent"), (retrying, "to retry"), (rejected, "rejected"), (authRefused, "refused (credentials)"), (expired, "expired")] where count > 0 {
            parts.append("\(count) \(label)")
        }
        parts.append("\(waiting) waiting")
        return parts.joined(separator: ", ")
    }
}
