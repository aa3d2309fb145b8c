import ConnCore
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One line of progress on stderr for long work (a fetch's phases, a flush's counts, a probe's
/// done/total), redrawn in place at most 10 times a second and cut to the terminal's width (never
/// wrapped), then erased when the work ends, so the summary line takes its place. It ends with
/// the time since it appeared, and is redrawn four times a second even when nothing else
/// changes, so a line waiting on a slow server still moves. Only when
/// stderr is a terminal and not with -q: in a pipe it writes nothing at all. Ctrl-C erases it
/// before the signal ends the process, so the shell's prompt starts on a clean line.
public final class ProgressLine: Sendable {
    private struct State {
        var lastDraw: ContinuousClock.Instant?
        var shown = false
        /// The latest text: an update held back by the redraw limit is drawn by the next tick.
        var current: String?
        var started: ContinuousClock.Instant?
        var ticker: Task<Void, Never>?
    }

    public let isEnabled: Bool
    private let width: Int
    private let sink: any OutputSink
    private let state = Mutex(State())
    private let clock = ContinuousClock()
    static let interval: Duration = .milliseconds(100)
    /// How often the line is redrawn with nothing new to say.
    static let tick: Duration = .milliseconds(250)

    /// A line for `context`'s stderr (enabled only on a terminal, without -q, and not with
    /// --json: a script reading JSON wants no drawing beside it).
    public convenience init(_ context: CommandContext) {
        self.init(enabled: context.terminal.standardErrorIsTerminal && context.verbosity != .quiet && context.configuration.format == .text,
                  width: TerminalSize.columns(environment: context.environment), sink: context.printer.sink)
    }

    /// A line drawn on `sink`'s stderr.
    public init(enabled: Bool, width: Int, sink: any OutputSink) {
        isEnabled = enabled
        self.width = max(10, width)
        self.sink = sink
        // The handler erases the process's own stderr: only where that is where the line goes.
        if enabled, sink is StandardOutputSink { Self.installInterruptHandler() }
    }

    /// Shows `text` (now, or at the next redraw if the last one was less than 100 ms ago;
    /// `force` draws now, for a phase that changes).
    public func update(_ text: String, force: Bool = false) {
        guard isEnabled else { return }
        let now = clock.now
        state.withLock { state in
            state.current = text
            if state.started == nil { state.started = now }
            if state.ticker == nil { state.ticker = startTicker() }
            if !force, let last = state.lastDraw, last.duration(to: now) < Self.interval { return }
            draw(text, at: now, in: &state)
        }
    }

    /// Redraws the latest text every `tick` (with a held-back update, and the time) until finished.
    private func startTicker() -> Task<Void, Never> {
        Task.detached { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.tick)
                guard let self, !Task.isCancelled else { return }
                let now = self.clock.now
                self.state.withLock { state in
                    guard let text = state.current, state.ticker != nil else { return }
                    self.draw(text, at: now, in: &state)
                }
            }
        }
    }

    /// Erases the line (the summary is printed after it).
    public func finish() {
        guard isEnabled else { return }
        // Under the lock, so that no tick draws after the line is erased.
        state.withLock { state in
            state.ticker?.cancel()
            state.ticker = nil
            state.current = nil
            state.started = nil
            if state.shown { sink.write("\r\u{1B}[K", to: .standardError) }
            state.shown = false
        }
    }

    /// Draws `text` now, with the state locked (`state` is the locked value).
    private func draw(_ text: String, at now: ContinuousClock.Instant, in state: inout State) {
        state.lastDraw = now
        state.shown = true
        draw(text, elapsed: state.started.map { $0.duration(to: now) } ?? .zero)
    }

    /// Draws `text` and the time since the line appeared; called with the state locked, so
    /// draws never interleave.
    private func draw(_ text: String, elapsed: Duration) {
        // One column is left free: a line that fills the width would wrap on some terminals.
        let seconds = elapsed.seconds
        let time = seconds < 60 ? String(format: "%.1f s", seconds) : "\(Int(seconds) / 60) min \(Int(seconds) % 60) s"
        let clean = TerminalSanitizer.sanitize(text, keepNewlines: false) + ", " + time
        let cut = clean.count > width - 1 ? String(clean.prefix(width - 2)) + "…" : clean
        sink.write("\r" + cut + "\u{1B}[K", to: .standardError)
    }

    // MARK: Ctrl-C

    private static let handlerInstalled = Mutex(false)

    /// On SIGINT or SIGTERM with a line shown: erase it, then let the signal do what it would.
    private static func installInterruptHandler() {
        let first = handlerInstalled.withLock { installed in
            defer { installed = true }
            return !installed
        }
        guard first else { return }
        for signalNumber in [SIGINT, SIGTERM] {
            // Only where nothing else handles the signal (watch, the REPL and the agent do).
            var current = sigaction()
            guard sigaction(signalNumber, nil, &current) == 0, current.__sigaction_handler.sa_handler == nil else { continue }
            signal(signalNumber) { received in
                let erase: [UInt8] = [0x0D, 0x1B, 0x5B, 0x4B]  // \r ESC [ K
                erase.withUnsafeBytes { _ = Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
                signal(received, SIG_DFL)
                raise(received)
            }
        }
    }
}
