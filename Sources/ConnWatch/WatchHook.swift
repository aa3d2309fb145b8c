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
        let printer = self.printer
        let command = self.command
        do {
            // SpawnedProcess, not Foundation's Process: the hook starts cleanly however many
            // descriptors conn holds (see SpawnedProcess).
            let process = try SpawnedProcess("/bin/sh", ["-c", command], environment: environment.merging(event.environment) { $1 },
                                             input: .pipe, output: .inherit, error: .inherit)
            process.onExit { finished in
                if finished.terminationStatus != 0 {
                    printer.warning("--exec '\(command)' exited with \(finished.terminationStatus)")
                }
            }
            let json = (try? JSONOutput.encode(event)) ?? "{}"
            // A hook that exits without reading its stdin closes the pipe: EPIPE here (SIGPIPE is
            // ignored), which is the hook's business, not a reason to stop watching.
            try? process.standardInput?.write(contentsOf: Data((json + "\n").utf8))
            try? process.standardInput?.close()
        } catch {
            printer.warning("--exec '\(command)' could not be started: \(error)")
        }
    }
}
