import ConnCommandKit
import ConnCore
import ConnLive
import Foundation

/// `--exec CMD`: runs CMD with /bin/sh on every change. The event is handed over in
/// CONN_EVENT_* environment variables and as JSON on stdin — never pasted into the command
/// string, so nothing from the network can become shell code.
struct WatchHook: Sendable {
    let command: String
    let printer: Printer
    /// The command's environment (inside `conn repl`, with the REPL's flags as CONN_* variables).
    let environment: [String: String]

    func run(_ event: WatchEvent) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.environment = environment.merging(event.environment) { $1 }
        let input = Pipe()
        process.standardInput = input
        let printer = self.printer
        let command = self.command
        process.terminationHandler = { finished in
            if finished.terminationStatus != 0 {
                printer.warning("--exec '\(command)' exited with \(finished.terminationStatus)")
            }
        }
        do {
            try process.run()
            let json = (try? JSONOutput.encode(event)) ?? "{}"
            // A hook that exits without reading its stdin closes the pipe: EPIPE here (SIGPIPE is
            // ignored), which is the hook's business, not a reason to stop watching.
            try? input.fileHandleForWriting.write(contentsOf: Data((json + "\n").utf8))
            try? input.fileHandleForWriting.close()
        } catch {
            printer.warning("--exec '\(command)' could not be started: \(error)")
        }
    }
}
