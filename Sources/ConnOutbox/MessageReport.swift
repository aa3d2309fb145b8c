import ConnCommandKit
import ConnCore
import Foundation

/// One outbox message as commands print it. JSON keys are part of the output contract.
public struct MessageReport: Encodable, TextRenderable, Sendable, SchemaVersioned {
    /// 2: an item may be a request (`kind`), whose `to` and `subject` are empty.
    public static let schemaVersion = 2
    public let id: String
    /// message (`conn send`) or request (`conn request`).
    public let kind: String
    /// Sent on every attempt so the server stores the message once: the id at the server it was
    /// queued for; after `outbox retarget`, a key of its own for each other server.
    public let idempotencyKey: String
    /// The origin it is delivered to, and only to (`https://host:443`); nil until a server is known.
    public let server: String?
    public let messagesUrl: String?
    /// The profile in effect when it was queued.
    public let profile: String?
    public let to: String
    public let subject: String
    public let text: String?
    public let responseToUid: String?
    /// pending | sending | sent | failed
    public let state: String
    /// What a person sees: "sending", "sent", "failed (rejected)".
    public let displayState: String
    public let failureReason: String?
    public let lastErrorCode: String?
    public let lastError: String?
    public let attempts: Int
    public let createdAt: Date
    public let nextAttemptAt: Date?
    public let sentAt: Date?
    public let serverUid: String?
    public let attemptLog: [OutboxAttempt]?
    /// A request's method, URL, headers (secrets hidden) and body; null for a message.
    public let request: RequestReport?
    /// What the server answered a request (its last attempt with an answer worth keeping).
    public let answer: AnswerReport?
    /// Why the message is not sent and what the user can do: resend, delete, wait.
    public let actions: [String]
    /// The running agent, which will make the next attempt (text only: a script asks
    /// `conn agent status`). Nil: nothing will try again on its own.
    public var agentPID: Int32?
    /// The origin configured now (text only): a message for another one says so.
    public var configuredServer: String?
    /// Text is the summary line alone — short id, state, recipient, subject — as for a message
    /// sent (`conn send` of a message left queued: the one stderr line says the rest).
    public var summaryOnly = false

    private enum CodingKeys: String, CodingKey {
        case id, kind, idempotencyKey, server, messagesUrl, profile, to, subject, text, responseToUid, state, displayState, failureReason,
             lastErrorCode, lastError, attempts, createdAt, nextAttemptAt, sentAt, serverUid, attemptLog, request, answer, actions
    }

    public init(_ message: OutboxMessage, includeText: Bool = false, attemptLog: [OutboxAttempt]? = nil) {
        id = message.id
        kind = message.kind.rawValue
        request = message.request.map { RequestReport($0, includeBody: includeText) }
        answer = message.answer.map(AnswerReport.init)
        idempotencyKey = message.idempotencyKey
        server = message.origin
        messagesUrl = message.messagesURL
        profile = message.profile
        to = message.to
        subject = message.subject
        text = includeText && message.kind == .message ? message.text : nil
        responseToUid = message.responseToUid
        state = message.state.rawValue
        displayState = message.displayState
        failureReason = message.failureReason?.rawValue
        lastErrorCode = message.lastErrorCode
        lastError = message.lastError
        attempts = message.attempts
        createdAt = message.createdAt
        nextAttemptAt = message.state == .pending ? max(message.nextAttemptAt, message.notBefore ?? .distantPast) : nil
        sentAt = message.sentAt
        serverUid = message.serverUid
        self.attemptLog = attemptLog
        switch message.state {
        case .failed: actions = ["resend", "delete"]
        case .pending: actions = ["flush", "delete"]
        case .sending, .sent: actions = []
        }
    }

    public func renderText(style: TextStyle) -> String {
        let clean = { (text: String) in TerminalSanitizer.sanitize(text, keepNewlines: false) }
        let what = request.map { "\($0.method) \(clean($0.url))" + (answer.map { "  → \($0.status)" } ?? "") } ?? "to \(clean(to))  \(clean(subject))"
        var lines = ["\(style.bold(String(id.prefix(8))))  \(stateText(style: style))  \(what)"]
        if summaryOnly { return lines[0] + "\n" }
        if let serverUid { lines.append("  server uid \(clean(serverUid))") }
        if state != "sent", let lastError { lines.append("  last error: \(clean(lastError))") }
        // Only a command that knows the configured server (list, show) can tell.
        // A request goes to its own URL, whoever delivers it: never "elsewhere".
        let elsewhere = kind == "message" && server != nil && configuredServer != nil && server != configuredServer
        if elsewhere, let server, state == "pending" || state == "sending" {
            lines.append("  for \(clean(server)), not the server configured now: it waits for its own")
            lines.append("  send it: conn outbox flush --server \(clean(server))   move it: conn outbox retarget \(id.prefix(8)) --server URL")
        } else if elsewhere, let server {
            lines.append("  for \(clean(server))")
        }
        if state == "pending", !elsewhere, let nextAttemptAt {
            // Never promise an attempt that nothing will make.
            if let agentPID {
                let wait = nextAttemptAt.timeIntervalSinceNow
                let when = wait <= 0 ? "now" : wait < 1 ? "in under a second" : "in \(TimeFormatting.duration(seconds: wait))"
                lines.append("  the agent (pid \(agentPID)) tries again \(when), when the server is reachable")
            } else if CommandSession.replDelivers {
                lines.append("  this REPL sends it when the server is reachable")
            } else {
                lines.append("  no agent is running: `conn outbox flush` sends it now, `conn agent` keeps trying")
            }
        }
        if state == "failed" { lines.append("  resend: conn outbox resend \(id.prefix(8))   delete: conn outbox delete \(id.prefix(8))") }
        if request != nil, let answer, attemptLog != nil {
            for name in KeptAnswer.keptHeaders { if let value = answer.headers[name] { lines.append("  \(name): \(clean(value))") } }
            if let body = answer.body, !body.isEmpty {
                lines.append("  answer (\(answer.bodyBytes) bytes\(answer.truncated ? ", the first \(KeptAnswer.keptBytes) kept" : "")):")
                lines.append(TerminalSanitizer.sanitize(body, keepNewlines: true))
            } else if answer.bodyBytes > 0 {
                lines.append("  answer: \(answer.bodyBytes) bytes, not text (--json has them in base64)")
            }
        }
        if let request, attemptLog != nil {
            lines.append("  id \(id) · \(attempts) attempt\(attempts == 1 ? "" : "s") · queued \(style.moment(createdAt))")
            lines.append("  idempotency: " + (request.idempotencyHeader.map { "\($0): \(idempotencyKey)" } ?? "none sent (delivered at least once)"))
            if let expect = request.expect { lines.append("  delivered when the server answers \(expect.map(String.init).joined(separator: ", "))") }
            for header in request.headers { lines.append("  > \(clean(header))") }
            lines.append("  > body: \(request.bodyBytes) bytes")
        }
        if let text {
            lines.append("  id \(id) · \(attempts) attempt\(attempts == 1 ? "" : "s") · queued \(style.moment(createdAt))")
            if let responseToUid { lines.append("  in reply to \(clean(responseToUid))") }
            lines.append("")
            lines.append(TerminalSanitizer.sanitize(text, keepNewlines: true))
        }
        if let attemptLog, !attemptLog.isEmpty {
            lines.append("")
            lines.append(style.bold("attempts"))
            for attempt in attemptLog {
                var line = "  #\(attempt.number) \(style.moment(attempt.startedAt)) \(attempt.outcome == "started" ? "interrupted (its deliverer stopped)" : attempt.outcome)"
                if let status = attempt.httpStatus { line += " HTTP \(status)" }
                if let detail = attempt.detail { line += " — \(clean(detail))" }
                lines.append(line)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func stateText(style: TextStyle) -> String {
        switch state {
        case "sent": style.green(displayState)
        case "failed": style.red(displayState)
        default: style.yellow(displayState)
        }
    }
}
