import ConnCore
import Foundation

// A closed pipe must never kill conn: a hook that exits before reading its event, a plugin, a
// server socket. Writes to a closed pipe fail with EPIPE instead, and conn handles that where it
// writes (standard output ending at `| head` ends conn quietly, as SIGPIPE did: see
// StandardOutputSink).
signal(SIGPIPE, SIG_IGN)

let environment = ProcessEnvironment.current()
SharedEventLoops.configure(environment: environment)
await EntryPoint.main(
    arguments: Array(CommandLine.arguments.dropFirst()),
    environment: environment)
