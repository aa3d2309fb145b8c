import ConnCore
import Foundation
import Synchronization

/// A wait of unknown length on a terminal (`probe --wait`, `send --wait`): a turning mark, what
/// is awaited and the time spent against the limit, redrawn ten times a second on the progress
/// line. Where the progress line is off (a pipe, -q) it does nothing, and the caller's plain
/// notes say the same once per try instead.
public final class Spinner: Sendable {
    private struct State {
        var text = ""
        var task: Task<Void, Never>?
    }

    private let line: ProgressLine
    private let frames: [String]
    private let limit: Duration?
    private let started = ContinuousClock.now
    private let state = Mutex(State())

    public var isEnabled: Bool { line.isEnabled }

    /// `limit`: the wait's length, shown as "12s of 2m".
    public init(_ context: CommandContext, limit: Duration?) {
        line = ProgressLine(context)
        frames = context.terminal.isUTF8 ? ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"] : ["|", "/", "-", "\\"]
        self.limit = limit
    }

    /// Shows `text` from now on; starts turning on the first call.
    public func show(_ text: String) {
        guard isEnabled else { return }
        let start = state.withLock { state in
            state.text = text
            return state.task == nil
        }
        guard start else { return }
        let task = Task { [self] in
            var frame = 0
            while !Task.isCancelled {
                draw(frame)
                frame += 1
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        state.withLock { $0.task = task }
    }

    /// Stops turning and erases the line.
    public func stop() {
        let task = state.withLock { state in
            defer { state.task = nil }
            return state.task
        }
        task?.cancel()
        line.finish()
    }

    private func draw(_ frame: Int) {
        let text = state.withLock { $0.text }
        let spent = TimeFormatting.duration(seconds: Double(Int((ContinuousClock.now - started).seconds)))
        let of = limit.map { " of \(TimeFormatting.duration($0))" } ?? ""
        // The time first: a long text is cut at the line's end, the time stays in view.
        line.update("\(frames[frame % frames.count]) \(spent)\(of)  \(text)", force: true)
    }
}
