import ConnCore
import Foundation

/// Replaces conn with the command given after `--` (as wait-for-it does), so its exit code,
/// signals and terminal are its own. Searches PATH like a shell; arguments are passed as they
/// are, never through a shell.
enum CommandExecutor {
    static func exec(_ command: [String]) throws -> Never {
        let pointers = command.map { strdup($0) } + [nil]
        execvp(command[0], pointers)
        let code = errno
        pointers.forEach { free($0) }
        throw ConnError(
            code: .commandFailed, message: "cannot run '\(command[0])': \(String(cString: strerror(code)))",
            hint: code == ENOENT ? "Is it installed and on PATH?" : nil,
            exitStatus: code == EACCES ? .permission : .unavailable)
    }
}
