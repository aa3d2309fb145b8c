import ConnCore
import ConnLive
import Foundation

/// The agent's decisions over one configuration, without their effects: inputs in (the live
/// session's events, signals, control requests, how a re-read went), actions out (log lines,
/// systemd notifications, answers, a re-read, a hand-over, a stop). `AgentLoop` is the driver:
/// it owns the sockets, the session and the printer, and performs what this says.
///
/// Phases: starting (until the loop's parts run) → running ⇄ reloading (SIGHUP: the re-read is
/// under way) → stopping (SIGTERM, SIGINT), or the hand-over to the next loop once a re-read is
/// taken. systemd hears READY=1 on running, RELOADING=1 (with MONOTONIC_USEC) then READY=1 around
/// a reload, STOPPING=1 only on a stop.
struct AgentMachine {
    enum Phase: Equatable {
        case starting, running, reloading, stopping
    }

    enum Input {
        /// The session and the control socket run.
        case ready(at: Date)
        case live(LiveSession.Event, at: Date)
        /// A signal, with CLOCK_MONOTONIC in µs at its arrival (RELOADING=1's MONOTONIC_USEC).
        case signal(Int32, at: Date, monotonicMicroseconds: UInt64)
        case control(AgentClient.Request?)
        /// The re-read that `.reread` asked for gave a configuration to go on with.
        case rereadTaken
        /// It could not be used: why (the log line's detail) and the warning for stderr.
        case rereadRefused(reason: String, warning: String, at: Date)
        /// The session, the socket and the delivery in flight have stopped (after `.stop`).
        case partsStopped(at: Date)
    }

    enum Action: Equatable {
        case emit(AgentEvent)
        case notify([String])
        case warn(String)
        /// Answer the control request with the status (the driver adds the database's counts).
        case answerStatus
        case answer(String)
        /// Messages `conn send` could not deliver: tried now.
        case wake([String])
        /// Look at the connection now (`conn top`'s `r`).
        case look
        /// Read the configuration again; feed `.rereadTaken` or `.rereadRefused`.
        case reread
        /// Go on with the loop the re-read made (the driver keeps what it still needs).
        case handOver
        /// Stop the parts; feed `.partsStopped` once they have.
        case stop(reason: String)
    }

    private(set) var phase = Phase.starting
    private(set) var status: AgentStatus
    /// Started by a SIGHUP re-read rather than at start (what its first line says).
    let reloaded: Bool

    init(status: AgentStatus, reloaded: Bool) {
        self.status = status
        self.reloaded = reloaded
    }

    static let stoppingAnswer = #"{"error":"the agent is stopping"}"#

    mutating func handle(_ input: Input) -> [Action] {
        switch (phase, input) {
        case (.starting, .ready(let now)):
            phase = .running
            return [.emit(stamped(AgentEvent(type: reloaded ? .reloaded : .started,
                                             detail: "pid \(status.pid), delivering the outbox of \(status.databaseFile) to \(status.server)"), now)),
                    .notify(["READY=1", "STATUS=Watching \(status.server)"])]
        case (.running, .live(let event, let now)), (.reloading, .live(let event, let now)):
            return take(event, at: now)
        case (.stopping, .control), (.starting, .control):
            return [.answer(Self.stoppingAnswer)]
        case (_, .control(let request)):
            switch request {
            case .status: return [.answerStatus]
            case .wake(let ids): return [.wake(ids), .answer(#"{"ok":true}"#)]
            case .look: return [.look, .answer(#"{"ok":true}"#)]
            case nil: return [.answer(#"{"error":"unknown request: ask status, wake or look"}"#)]
            }
        case (.running, .signal(SIGHUP, _, let monotonic)):
            phase = .reloading
            return [.notify(["RELOADING=1", "MONOTONIC_USEC=\(monotonic)", "STATUS=Reading the configuration again"]), .reread]
        case (.reloading, .signal(SIGHUP, _, _)):
            return []  // one re-read at a time
        case (.running, .signal(let number, _, _)), (.reloading, .signal(let number, _, _)):
            phase = .stopping
            let reason = number == SIGINT ? "SIGINT" : "SIGTERM"
            stopReason = reason
            return [.notify(["STOPPING=1", "STATUS=Stopping (\(reason))"]), .stop(reason: reason)]
        case (.reloading, .rereadTaken):
            // The next loop sends READY=1 once its parts run; no STOPPING=1 in between.
            status.lastError = nil
            return [.handOver]
        case (.reloading, .rereadRefused(let reason, let warning, let now)):
            phase = .running
            status.lastError = "configuration not re-read: \(reason)"
            return [.warn(warning), .emit(stamped(AgentEvent(type: .reloadFailed, detail: reason), now)),
                    .notify(["READY=1", "STATUS=Configuration not re-read; watching \(status.server)"])]
        case (.stopping, .partsStopped(let now)):
            return [.emit(stamped(AgentEvent(type: .stopped, detail: stopReason), now))]
        default:
            return []
        }
    }

    /// Why the agent stops (the signal), once it does.
    private var stopReason = "interrupted"

    private mutating func take(_ event: LiveSession.Event, at now: Date) -> [Action] {
        switch event {
        case .looked(let decision, let reported):
            status.network = reported
            guard let event = decision.event else { return [] }
            let kind: AgentEvent.Kind = event.type == .baseline ? .baseline : event.type == .path ? .path : .change
            return [.emit(stamped(AgentEvent(type: kind, from: event.from, state: event.state, downtimeMs: event.downtimeMs,
                                             connectionState: status.connectionState), now)),
                    .notify(["STATUS=\(reported?.summary ?? "checking") — \(status.server)"])]
        case .path(let event, let reported):
            status.network = reported
            return [.emit(stamped(AgentEvent(type: .path, state: event.state, connectionState: status.connectionState), now))]
        case .link(let state):
            let previous = status.connectionState
            status.connectionState = state
            return state.isNews(after: previous) ? [.emit(stamped(AgentEvent(type: .connectionState, connectionState: state), now))] : []
        case .linkEnabled:
            return []
        case .outbox(let pass):
            let summary = WatchOutboxSummary(pass)
            status.lastDelivery = AgentStatus.Delivery(at: now, sent: pass.tally.sent, retrying: pass.tally.retrying,
                                                       failed: pass.tally.rejected + pass.tally.authRefused + pass.tally.expired,
                                                       error: summary.error)
            if let error = summary.error { status.lastError = error }
            return [.emit(stamped(AgentEvent(type: .outbox, outbox: summary), now))]
        case .synced(let result):
            status.lastSync = result
            if let error = result.error { status.lastError = "inbox sync: \(error)" }
            return !result.ok || !result.notModified ? [.emit(stamped(AgentEvent(type: .sync, sync: result), now))] : []
        case .chrony(let news):
            return [.emit(stamped(AgentEvent(type: .chrony, detail: news.text), now))]
        case .resourcesSynced(let result):
            // A line when something changed or failed; all still current is no news.
            if !result.failed.isEmpty { status.lastError = "sync: \(result.text)" }
            return result.refreshed > 0 || !result.failed.isEmpty ? [.emit(stamped(AgentEvent(type: .resources, detail: result.text), now))] : []
        }
    }

    /// The event at `now`, carrying the state as of now when it has none of its own.
    private func stamped(_ event: AgentEvent, _ now: Date) -> AgentEvent {
        var event = event
        event.at = now
        event.state = event.state ?? status.network
        return event
    }
}
