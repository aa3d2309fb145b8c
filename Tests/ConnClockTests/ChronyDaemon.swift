import ConnCore
import ConnTestSupport
import Foundation

/// The test's own chronyd (Debian's chrony, run with -x: it never sets this machine's clock), with
/// conn as its SOCK reference clock (refid CONN) and its command socket in a private directory.
struct ChronyDaemon {
    static let chronyd = "/usr/sbin/chronyd"
    static let chronyc = "/usr/bin/chronyc"
    static var available: Bool { FileManager.default.isExecutableFile(atPath: chronyd) && getuid() == 0 }

    /// Where chronyd takes conn's samples, and where chronyc asks it.
    let socket: String
    let command: String
    let configuration: String
    let process: SpawnedProcess

    /// Starts chronyd over `directory` (made 0700: chronyd refuses a socket directory others may
    /// write to) and waits for it to listen.
    static func start(in directory: String) async throws -> ChronyDaemon {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let socket = directory + "/conn.sock", command = directory + "/chronyd.sock", configuration = directory + "/chrony.conf"
        try """
            refclock SOCK \(socket) refid CONN poll 0 filter 4 precision 1e-3
            bindcmdaddress \(command)
            cmdport 0
            pidfile \(directory)/chronyd.pid
            driftfile \(directory)/drift
            """.write(toFile: configuration, atomically: true, encoding: .utf8)
        return try await start(socket: socket, command: command, configuration: configuration)
    }

    private static func start(socket: String, command: String, configuration: String) async throws -> ChronyDaemon {
        let process = try SpawnedProcess(chronyd, ["-u", "root", "-x", "-d", "-f", configuration])
        let listening = await poll(for: 20, every: .milliseconds(50)) { FileManager.default.fileExists(atPath: socket) ? true : nil }
        guard listening == true else {
            process.terminate()
            throw NotListening(socket: socket)
        }
        return ChronyDaemon(socket: socket, command: command, configuration: configuration, process: process)
    }

    struct NotListening: Error, CustomStringConvertible {
        let socket: String
        var description: String { "chronyd did not create \(socket)" }
    }

    /// Stops it and waits for it to end.
    func stop() async {
        process.terminate()
        await process.exited()
    }

    /// The same daemon started again (after `stop`).
    func restarted() async throws -> ChronyDaemon {
        try await Self.start(socket: socket, command: command, configuration: configuration)
    }

    /// chronyd's own word, once it has selected conn's source: how slow it finds this machine's
    /// time (seconds), when within 10 ms of `expected`.
    func slow(by expected: Double) async throws -> Double? {
        try await poll(for: 60, every: .milliseconds(500)) { () -> Double? in
            let tracking = try await ConnProcess.run(Self.chronyc, ["-h", command, "tracking"], environment: [:])
            guard tracking.standardOutput.contains("(CONN)"),
                  let match = tracking.standardOutput.firstMatch(of: /System time\s*:\s*([0-9.]+) seconds slow of NTP time/),
                  let seconds = Double(match.1), abs(seconds - expected) <= 0.010 else { return nil }
            return seconds
        }
    }

    /// `chronyc sources`' line for conn's source, once it is no longer the selected one (`#*`).
    func deselected() async throws -> String? {
        try await poll(for: 60, every: .milliseconds(500)) { () -> String? in
            let sources = try await ConnProcess.run(Self.chronyc, ["-h", command, "sources"], environment: [:])
            let line = sources.standardOutput.split(separator: "\n").first { $0.contains("CONN") }.map(String.init) ?? ""
            return line.hasPrefix("#*") ? nil : line
        }
    }
}
