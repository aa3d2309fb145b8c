import CReadline
import ConnCore
import Dispatch
import Foundation
import Synchronization

/// GNU readline in its callback mode, on a thread of its own.
///
/// The thread polls the terminal and a wake-up pipe, so other threads can print a notice above
/// the prompt or change the prompt while a line is half typed: readline saves the line, the
/// notice is printed, the prompt and the line are drawn again. Readline's globals are touched
/// only on this thread.
final class LineEditor: Sendable {
    enum Input: Sendable, Equatable {
        case line(String)
        /// Ctrl-D on an empty line.
        case endOfInput
        /// Ctrl-C while a continuation line was read: what was typed so far is abandoned.
        case interrupted
    }

    /// Returns the candidates for the word before the cursor, given the line up to the cursor.
    typealias Completer = @Sendable (_ lineBeforeCursor: String) -> [String]

    private struct Shared {
        var prompt: String
        var notices: [String] = []
        /// Lines to add to the history before the next read (readline's history is not
        /// thread-safe: only the editor thread touches it).
        var history: [String] = []
        var interrupts = 0
        var resized = false
        /// Set while a line is being read; resumed with the line.
        var reader: CheckedContinuation<Input, Never>?
        /// The prompt of a continuation line (an open quote), shown instead of `prompt`.
        var continuationPrompt: String?
    }

    private let shared: Mutex<Shared>
    private let wakePipe: (read: Int32, write: Int32)
    private let requests = DispatchSemaphore(value: 0)
    private let historyFile: String?
    private let onInterruptWhileBusy: @Sendable () -> Void

    init(prompt: String, historyFile: String?, historyLimit: Int32 = 1_000, completer: @escaping Completer,
         onInterruptWhileBusy: @escaping @Sendable () -> Void) {
        shared = Mutex(Shared(prompt: prompt))
        // Not inherited by plugins, pagers and editors.
        let ends = CloseOnExecPipe.make() ?? (read: -1, write: -1)
        _ = fcntl(ends.read, F_SETFL, O_NONBLOCK)
        _ = fcntl(ends.write, F_SETFL, O_NONBLOCK)
        wakePipe = ends
        self.historyFile = historyFile
        self.onInterruptWhileBusy = onInterruptWhileBusy
        ReadlineGlobals.completer.withLock { $0 = completer }
        // Readline measures the prompt and the line in the C library's locale: without this it
        // counts bytes, so a UTF-8 "›" (3 bytes, 1 column) put its redraws 2 columns off — a
        // prompt redrawn at another width came out garbled ("conn unreachabl›").
        setlocale(LC_CTYPE, "")
        conn_rl_configure("conn")
        conn_rl_set_completion(ReadlineGlobals.complete)
        conn_rl_multiline_history()
        stifle_history(historyLimit)
        if let historyFile { _ = read_history(historyFile) }
        let thread = Thread { [self] in loop() }
        thread.name = "conn.readline"
        thread.start()
        installSignalHandlers()
    }

    /// Reads one line, showing the current prompt, or `continuationPrompt` for the next line of
    /// an unfinished one (where Ctrl-C answers `.interrupted` instead of clearing the line).
    func read(continuationPrompt: String? = nil) async -> Input {
        await withCheckedContinuation { continuation in
            shared.withLock {
                $0.reader = continuation
                $0.continuationPrompt = continuationPrompt
            }
            requests.signal()
        }
    }

    /// Prints `text` above the prompt (at once if a line is being read, else straight away).
    func announce(_ text: String) {
        let reading = shared.withLock { state in
            if state.reader != nil { state.notices.append(text) }
            return state.reader != nil
        }
        if reading {
            wake()
        } else {
            FileHandle.standardOutput.write(Data((text + "\n").utf8))
        }
    }

    /// The prompt from the next redisplay on.
    func setPrompt(_ prompt: String) {
        shared.withLock { $0.prompt = prompt }
        wake()
    }

    /// Adds `line` to the history before the next read, with any `user:password@` in it
    /// replaced by `***@`: the history file outlives the session, and conn refuses such URLs anyway.
    func addToHistory(_ line: String) {
        let kept = URLUserinfo.redactingSecrets(inLine: line)
        shared.withLock { $0.history.append(kept) }
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakePipe.write, &byte, 1)
    }

    private func installSignalHandlers() {
        signal(SIGINT, SIG_IGN)
        signal(SIGWINCH, SIG_IGN)
        let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        interrupt.setEventHandler { [self] in
            let reading = shared.withLock { state in
                if state.reader != nil { state.interrupts += 1 }
                return state.reader != nil
            }
            if reading { wake() } else { onInterruptWhileBusy() }
        }
        interrupt.resume()
        let resize = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .global())
        resize.setEventHandler { [self] in
            shared.withLock { $0.resized = true }
            wake()
        }
        resize.resume()
        ReadlineGlobals.signalSources = [interrupt, resize]
    }

    // MARK: The editor thread

    private func loop() {
        while true {
            requests.wait()
            let prompt = shared.withLock { state -> String in
                applyHistory(&state)
                return state.continuationPrompt ?? state.prompt
            }
            let input = readOneLine(prompt: prompt)
            let reader = shared.withLock { state -> CheckedContinuation<Input, Never>? in
                defer { state.reader = nil }
                return state.reader
            }
            reader?.resume(returning: input)
        }
    }

    private func applyHistory(_ state: inout Shared) {
        guard !state.history.isEmpty else { return }
        defer { state.history.removeAll() }
        for line in state.history {
            // Not twice in a row, as shells do.
            if let last = conn_history_last(), String(cString: last) == line { continue }
            add_history(line)
        }
        if let historyFile { _ = write_history(historyFile) }
    }

    private func readOneLine(prompt: String) -> Input {
        ReadlineGlobals.finished.withLock { $0 = nil }
        var shownPrompt = prompt
        // A new status prompt waits while the line holds a newline (a multi-line entry from the
        // history): readline does not track the row an embedded newline starts, and redrawing a
        // prompt of another width over such a line left a garbled line on the screen.
        var pendingPrompt: String?
        func showPendingPrompt() {
            guard let prompt = pendingPrompt else { return }
            if let line = conn_rl_line_buffer(), strchr(line, 0x0A) != nil { return }
            pendingPrompt = nil
            shownPrompt = prompt
            rl_set_prompt(prompt)
            rl_redisplay()
        }
        rl_callback_handler_install(shownPrompt, ReadlineGlobals.lineHandler)
        defer { rl_callback_handler_remove() }
        flushNotices()
        var fds = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0), pollfd(fd: wakePipe.read, events: Int16(POLLIN), revents: 0)]
        while true {
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return .endOfInput
            }
            if fds[1].revents != 0 {
                var buffer = [UInt8](repeating: 0, count: 64)
                while Foundation.read(wakePipe.read, &buffer, buffer.count) > 0 {}
                let (interrupts, resized, prompt, continuing) = shared.withLock { state in
                    defer { state.interrupts = 0; state.resized = false }
                    return (state.interrupts, state.resized, state.continuationPrompt ?? state.prompt, state.continuationPrompt != nil)
                }
                if resized { conn_rl_resize() }
                if interrupts > 0, continuing {
                    rl_free_line_state()
                    rl_callback_sigcleanup()
                    rl_replace_line("", 0)
                    conn_rl_print("^C\n")
                    return .interrupted
                }
                if interrupts > 0 {
                    // Ctrl-C clears the line, as in a shell.
                    rl_free_line_state()
                    rl_callback_sigcleanup()
                    rl_replace_line("", 0)
                    conn_rl_print("^C\n")
                    rl_on_new_line()
                    rl_redisplay()
                }
                pendingPrompt = prompt != shownPrompt ? prompt : nil
                showPendingPrompt()
                flushNotices()
            }
            if fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                rl_callback_read_char()
                if let finished = ReadlineGlobals.finished.withLock({ $0 }) { return finished }
                showPendingPrompt()
            }
        }
    }

    /// Prints queued notices above the prompt without losing the half-typed line.
    private func flushNotices() {
        let notices = shared.withLock { state -> [String] in
            defer { state.notices.removeAll() }
            return state.notices
        }
        guard !notices.isEmpty else { return }
        let point = conn_rl_point()
        let saved = rl_copy_text(0, conn_rl_end())
        rl_save_prompt()
        rl_replace_line("", 0)
        rl_redisplay()
        for notice in notices { conn_rl_print(notice + "\n") }
        rl_restore_prompt()
        if let saved { rl_replace_line(saved, 0) } else { rl_replace_line("", 0) }
        conn_rl_set_point(point)
        rl_forced_update_display()
        free(saved)
    }
}

/// Readline's callbacks are C function pointers, which cannot capture: what they need lives here.
/// Touched only on the editor thread (the completer is set once before it starts).
enum ReadlineGlobals {
    static let finished = Mutex<LineEditor.Input?>(nil)
    static let completer = Mutex<LineEditor.Completer?>(nil)
    /// Kept alive for the life of the process; set once.
    nonisolated(unsafe) static var signalSources: [any DispatchSourceSignal] = []

    static let lineHandler: @convention(c) (UnsafeMutablePointer<CChar>?) -> Void = { line in
        // Stop readline from drawing a new prompt or reading more before the command has run.
        rl_callback_handler_remove()
        guard let line else {
            conn_rl_print("\n")
            finished.withLock { $0 = .endOfInput }
            return
        }
        let text = String(cString: line)
        free(line)
        finished.withLock { $0 = .line(text) }
    }

    static let complete: conn_rl_completion_function = { _, _, end in
        conn_rl_completion_over()
        guard let completer = completer.withLock({ $0 }), let buffer = conn_rl_line_buffer() else { return nil }
        let bytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self), count: Int(end)))
        let candidates = completer(String(decoding: bytes, as: UTF8.self))
        guard !candidates.isEmpty else { return nil }
        // Readline's format: the text to insert (the candidates' common prefix), then each one.
        let common = candidates.dropFirst().reduce(candidates[0]) { prefix, candidate in
            String(zip(prefix, candidate).prefix { $0 == $1 }.map(\.0))
        }
        let entries = candidates.count == 1 ? candidates : [common] + candidates
        // Readline frees the array and its strings with free(): allocate them with malloc.
        let array = malloc(MemoryLayout<UnsafeMutablePointer<CChar>?>.stride * (entries.count + 1))!.assumingMemoryBound(to: UnsafeMutablePointer<CChar>?.self)
        for (index, entry) in entries.enumerated() { array[index] = strdup(entry) }
        array[entries.count] = nil
        return array
    }
}
