import ArgumentParser
import ConnCommandKit
import ConnCore
import Foundation

/// `conn outbox flush`: deliver what is waiting, several at once.
public struct OutboxFlushCommand: ConnCommand {
    public static let configuration = CommandConfiguration(
        commandName: "flush",
        abstract: "Deliver waiting messages now, several at once over kept-alive connections.",
        discussion: HelpText.discussion(
            """
            Tries every waiting message once (a manual flush does not wait for conn's own \
            backoff; the server's Retry-After is honoured). With --wait, goes on retrying with \
            backoff until the queue is empty or the time runs out; the backoff is capped at a \
            quarter of the wait, so a message that failed often before is still tried again \
            within it. Safe to run from several processes at once: each message is leased to one \
            deliverer.
            """,
            exitCodes: """
                0 nothing left waiting; 65 a message or request was rejected; 75 some still waiting \
                (the server could not be reached, or asked to wait); 77 the server refused the \
                credentials (the queue is paused); 78 messages wait and no server is configured \
                (requests are delivered first)
                """,
            examples: [
                .init("conn outbox flush", "Try every waiting message now."),
                .init("conn outbox flush --wait 5m --json", "Keep trying for up to 5 minutes; the tally as JSON."),
            ]))

    @OptionGroup(title: "Global options") public var global: GlobalOptions

    @Option(name: .long, defaultAsFlag: "30s", parsing: .next,
            help: ArgumentHelp("Keep retrying until the queue is empty, for up to this long (--wait alone: 30s).", valueName: "duration"))
    var wait: OptionalValueDuration? = nil

    @Option(help: "Requests in flight at once.")
    var concurrency = 8

    public init() {}

    public func validate() throws {
        guard (1...256).contains(concurrency) else { throw ValidationError("--concurrency must be between 1 and 256.") }
        try wait?.check(option: "--wait")
    }

    public func run(in context: CommandContext) async throws {
        // Without a server, requests are still delivered (each to its own URL); messages wait.
        let backEnd = context.configuration.backEnd
        var store = try context.openOutbox()
        if let wait { store.fitBackoff(within: wait.duration) }
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = wait.map { start + $0.duration }
        let line = ProgressLine(context)
        defer { line.finish() }
        let target = OutboxTarget(backEnd)
        let total = line.isEnabled ? (try? store.waitingCount(for: target.origin)) ?? 0 : 0
        let showProgress: (FlushTally) -> Void = { tally in
            let seconds = start.duration(to: clock.now).seconds
            let rate = seconds > 0.5 && tally.sent > 0 ? String(format: " (%.1f/s)", Double(tally.sent) / seconds) : ""
            line.update("delivering: \(tally.sent) of \(total) sent\(rate), \(tally.rejected + tally.expired) failed, \(max(0, total - tally.sent - tally.rejected - tally.expired)) waiting")
        }
        if line.isEnabled { showProgress(FlushTally()) }
        let tally = try await HTTPTransport.with(configuration: context.configuration, logger: context.logger) { transport in
            var deliverer = OutboxDeliverer(store: store, transport: transport, target: target,
                                            concurrency: concurrency, requestTimeout: context.configuration.timeout)
            if backEnd == nil { deliverer.tokenOrigin = nil }
            var tally = FlushTally()
            try await deliverer.flushOnce(.due(ignoringBackoff: true), tally: &tally, afterBatch: line.isEnabled ? showProgress : nil)
            while let deadline, tally.pause == nil, try store.waitingCount(for: target.origin) > 0, clock.now < deadline {
                let wakeUp = try store.nextWakeUp(respectingBackoff: true, for: target.origin) ?? Date()
                let pause = min(max(wakeUp.timeIntervalSinceNow, 0.05), 1.0, clock.now.duration(to: deadline).seconds)
                if context.terminal.standardErrorIsTerminal, let error = tally.lastRetryError {
                    line.finish()
                    context.printer.note("\(try store.waitingCount(for: target.origin)) waiting (\(TerminalSanitizer.sanitize(error, keepNewlines: false))); next try in \(Int((pause * 1000).rounded())) ms")
                }
                try await Task.sleep(for: .milliseconds(Int64(pause * 1000)))
                try await deliverer.flushOnce(.due(ignoringBackoff: false), tally: &tally, afterBatch: line.isEnabled ? showProgress : nil)
            }
            return tally
        }
        line.finish()
        if backEnd == nil, case let messages = try store.waitingCount(kind: .message), messages > 0 {
            let delivered = tally.sent > 0 ? "; \(tally.sent) request\(tally.sent == 1 ? "" : "s") delivered" : ""
            throw ConnError.configuration("no server is configured: \(messages) message\(messages == 1 ? " waits" : "s wait") for one\(delivered)",
                                          hint: "Pass --server URL, set CONN_SERVER, or add `server: URL` to \(context.configuration.configFile).")
        }
        let counts = try store.counts()
        let elsewhere = try store.waitingElsewhere(than: target.origin)
        var report = FlushReport(tally: tally, waiting: try store.waitingCount(for: target.origin),
                                 failed: counts[.failed] ?? 0, elapsedMs: start.duration(to: clock.now).milliseconds)
        report.waitingForOtherServers = elsewhere.isEmpty ? nil : elsewhere
        try context.printer.emit(report)
        if !elsewhere.isEmpty {
            let list = elsewhere.sorted { $0.key < $1.key }.map { "\($0.value) for \($0.key)" }.joined(separator: ", ")
            context.printer.note("not sent here, waiting for their own servers: \(list); `conn outbox flush --server URL` delivers them, `conn outbox retarget` moves one")
        }
        if let pause = tally.pause {
            throw ConnError(code: pause.byProxy ? .proxyAuthRequired : .authRefused,
                            message: "\(pause.byProxy ? "the proxy wants credentials" : "the server refused the credentials"): \(TerminalSanitizer.sanitize(pause.message, keepNewlines: false)); the queue is paused",
                            hint: AuthPause.hint(byProxy: pause.byProxy, then: "`conn outbox resend --failed`"), exitStatus: .permission)
        }
        if tally.rejected > 0 {
            throw ConnError.dataError(.rejected, "the server rejected \(tally.rejected) message\(tally.rejected == 1 ? "" : "s")", hint: "See `conn outbox list --state failed`; fix and send again, or delete.")
        }
        if report.waiting > 0 {
            throw ConnError.temporary(.stillWaiting, "\(report.waiting) message\(report.waiting == 1 ? "" : "s") still waiting\(tally.lastRetryError.map { ": \(TerminalSanitizer.sanitize($0, keepNewlines: false))" } ?? "")",
                                      hint: wait == nil ? "Run `conn outbox flush --wait` to keep retrying." : "Run the flush again later.")
        }
    }
}

struct FlushReport: Encodable, TextRenderable {
    let attempted: Int
    let sent: Int
    let retrying: Int
    let rejected: Int
    let authRefused: Int
    let expired: Int
    /// Still pending or being sent when the flush ended.
    let waiting: Int
    /// All failed messages in the outbox, not only this flush's.
    let failed: Int
    let paused: Bool
    let elapsedMs: Double
    /// Messages waiting for servers other than this one, by origin (nil when there are none).
    var waitingForOtherServers: [String: Int]?

    init(tally: FlushTally, waiting: Int, failed: Int, elapsedMs: Double) {
        attempted = tally.attempted
        sent = tally.sent
        retrying = tally.retrying
        rejected = tally.rejected
        authRefused = tally.authRefused
        expired = tally.expired
        self.waiting = waiting
        self.failed = failed
        paused = tally.pause != nil
        self.elapsedMs = elapsedMs
    }

    func renderText(style: TextStyle) -> String {
        if attempted == 0 && waiting == 0 { return "nothing to deliver\n" }
        var parts = ["\(style.bold("\(sent) sent"))"]
        if rejected > 0 { parts.append(style.red("\(rejected) rejected")) }
        if authRefused > 0 { parts.append(style.red("\(authRefused) refused (credentials)")) }
        if expired > 0 { parts.append(style.red("\(expired) expired")) }
        parts.append("\(waiting) still waiting")
        return "\(parts.joined(separator: ", ")) (\(attempted) attempt\(attempted == 1 ? "" : "s"), \(TimeFormatting.duration(milliseconds: elapsedMs)))\n"
    }
}
