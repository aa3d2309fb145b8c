import Foundation

/// The user's text editor, run on a file with the terminal: `$VISUAL`, then `$EDITOR`, else `vi`,
/// as git does. A shell runs it, so it may carry arguments (`code --wait`).
public struct ExternalEditor: Sendable {
    public var environment: [String: String]

    public init(environment: [String: String]) {
        self.environment = environment
    }

    public var command: String {
        for name in ["VISUAL", "EDITOR"] {
            if let value = environment[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty { return value }
        }
        return "vi"
    }

    /// Runs the editor on `path` and waits for it. `consequence` ends the error message: what was
    /// not done because the editor failed ("nothing was sent").
    public func edit(_ path: String, consequence: String) throws {
        let status: Int32
        do {
            status = try ForegroundChild.run("/bin/sh", arguments: ["sh", "-c", command + " \"$1\"", "sh", path], environment: environment)
        } catch {
            throw ConnError.unavailable(.editorFailed, "cannot start the editor (\(command)): \(String(cString: strerror(error.errno))): \(consequence)")
        }
        guard status == 0 else {
            throw ConnError.unavailable(
                .editorFailed, "the editor (\(command)) exited with \(status): \(consequence)",
                hint: status == 127 ? "It was not found: set VISUAL or EDITOR to an editor that is installed." : nil)
        }
    }

    /// Creates `path` with `text`, readable by the user only, failing if it exists: the file an
    /// editor gets may hold a token or a private message.
    public static func createPrivateFile(_ path: String, text: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw ConnError.unavailable(.editorFailed, "cannot create a file for the editor at \(path): \(String(cString: strerror(errno)))")
        }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        guard written == bytes.count else {
            unlink(path)
            throw ConnError.unavailable(.editorFailed, "cannot write the file for the editor at \(path)")
        }
    }
}
