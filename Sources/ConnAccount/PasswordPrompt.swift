import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Reads a line from the terminal without echoing it (a password), as sudo and docker login do.
/// The terminal's settings come back however the read ends — Enter, end of input, or Ctrl-C
/// (the handler restores them before the signal ends the process).
enum PasswordPrompt {
    /// The settings to restore from a signal handler, which cannot capture.
    nonisolated(unsafe) private static var saved = termios()

    /// Shows `prompt` on stderr and reads a line from standard input with echo off; nil at the
    /// end of input.
    static func read(_ prompt: String) -> String? {
        FileHandle.standardError.write(Data(prompt.utf8))
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return readLine(strippingNewline: true) }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        quiet.c_lflag |= tcflag_t(ECHONL)
        let restore: @convention(c) (Int32) -> Void = { signal in
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &PasswordPrompt.saved)
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
        return readLine(strippingNewline: true)
    }
}
