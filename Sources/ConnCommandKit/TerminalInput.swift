import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Where a command reads what the person types: the answer to a question, a confirmation, a
/// password. Commands ask through their context (`CommandContext.ask`), never `readLine()`
/// directly, so a test can answer in-process.
public protocol TerminalInput: Sendable {
    /// One line without its line end; nil at the end of input. `hidingInput`: not echoed (a
    /// password).
    func readLine(hidingInput: Bool) -> String?

    /// Shows a prompt (by calling `showPrompt`) and reads one line. A hidden read must turn echo
    /// off before the prompt shows: what is typed the moment it shows is then neither echoed nor
    /// thrown away by the switch.
    func readLine(hidingInput: Bool, showingPrompt showPrompt: () -> Void) -> String?
}

extension TerminalInput {
    public func readLine(hidingInput: Bool, showingPrompt showPrompt: () -> Void) -> String? {
        showPrompt()
        return readLine(hidingInput: hidingInput)
    }
}

/// The process's standard input. A hidden read turns echo off, as sudo and docker login do, and
/// the terminal's settings come back however the read ends — Enter, end of input, or Ctrl-C
/// (a handler restores them before the signal ends the process).
public struct StandardInput: TerminalInput {
    public init() {}

    public func readLine(hidingInput: Bool) -> String? {
        readLine(hidingInput: hidingInput, showingPrompt: {})
    }

    public func readLine(hidingInput: Bool, showingPrompt showPrompt: () -> Void) -> String? {
        guard hidingInput else {
            showPrompt()
            return Swift.readLine(strippingNewline: true)
        }
        return Self.readHidden(showingPrompt: showPrompt)
    }

    /// The settings to restore from a signal handler, which cannot capture.
    nonisolated(unsafe) private static var saved = termios()

    /// Echo goes off (TCSAFLUSH: what was typed before the prompt is dropped, as sudo and ssh do)
    /// before the prompt shows; the other way round, a password typed as soon as the prompt showed
    /// was echoed, then discarded by the switch, and the read waited for ever.
    private static func readHidden(showingPrompt showPrompt: () -> Void) -> String? {
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else {
            showPrompt()
            return Swift.readLine(strippingNewline: true)
        }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        quiet.c_lflag |= tcflag_t(ECHONL)
        let restore: @convention(c) (Int32) -> Void = { signal in
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &StandardInput.saved)
            Glibc.signal(signal, SIG_DFL)
            raise(signal)
        }
        let previous = (signal(SIGINT, restore), signal(SIGTERM, restore), signal(SIGHUP, restore))
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
            signal(SIGINT, previous.0)
            signal(SIGTERM, previous.1)
            signal(SIGHUP, previous.2)
        }
        showPrompt()
        return Swift.readLine(strippingNewline: true)
    }
}

/// Answers given in advance, for tests: each read takes the next one (nil once they run out), and
/// remembers whether it was asked to hide the input.
public final class ScriptedInput: TerminalInput {
    private let state: Mutex<(answers: [String], hidden: [Bool])>

    public init(_ answers: [String]) {
        state = Mutex((answers, []))
    }

    public func readLine(hidingInput: Bool) -> String? {
        state.withLock { state in
            state.hidden.append(hidingInput)
            return state.answers.isEmpty ? nil : state.answers.removeFirst()
        }
    }

    /// For each read so far, whether its input was hidden.
    public var hiddenReads: [Bool] { state.withLock { $0.hidden } }
}
