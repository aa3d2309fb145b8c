import Foundation

/// A fresh directory under the system's temporary directory, removed when the test is done.
public final class TemporaryDirectory {
    public let path: String

    public init() throws {
        path = NSTemporaryDirectory() + "conn-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Writes `text` to `name` (creating parent directories) and returns its path.
    @discardableResult
    public func write(_ name: String, _ text: String, mode: Int = 0o600) throws -> String {
        let file = path + "/" + name
        try FileManager.default.createDirectory(
            atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file)
        return file
    }

    /// An environment whose HOME and XDG directories all point inside this directory. No pager
    /// (CONN_PAGER=cat): a test in a terminal must not wait in `less` (PagerTests sets its own).
    public var environment: [String: String] {
        ["HOME": path, "XDG_CONFIG_HOME": path + "/config", "XDG_DATA_HOME": path + "/data",
         "XDG_STATE_HOME": path + "/state", "XDG_CACHE_HOME": path + "/cache", "PATH": "/usr/bin:/bin", "CONN_PAGER": "cat"]
    }

    public var configFile: String { path + "/config/conn/config.yaml" }
}

extension TemporaryDirectory {
    /// Runs the real `conn ARGS…` with this directory as HOME and XDG base, `server` as
    /// CONN_SERVER, `env` on top, and `input` on stdin.
    public func conn(_ arguments: [String], server: URL? = nil, env: [String: String] = [:], input: String = "") async throws -> ProcessOutcome {
        var variables = environment
        if let server { variables["CONN_SERVER"] = server.absoluteString }
        return try await ConnProcess.run(ConnProcess.connPath, arguments, environment: variables.merging(env) { $1 }, input: input)
    }
}

extension TemporaryDirectory {
    /// Starts the real `conn ARGS…` in a terminal (tmux) with this directory's environment, a
    /// UTF-8 locale, `server` as CONN_SERVER and `env` on top.
    public func terminal(_ arguments: [String], server: URL? = nil, env: [String: String] = [:],
                         columns: Int = 120, rows: Int = 40) throws -> TerminalSession {
        var variables = environment.merging(["TERM": "xterm-256color", "LANG": "C.UTF-8"]) { $1 }
        if let server { variables["CONN_SERVER"] = server.absoluteString }
        return try TerminalSession([ConnProcess.connPath] + arguments, environment: variables.merging(env) { $1 },
                                   columns: columns, rows: rows)
    }
}
