import ConnTestSupport
import ConnCore
import Foundation

/// Debian's real Prometheus tools, started on free loopback ports for one test.
enum PrometheusTools {
    static let prometheusPath = "/usr/bin/prometheus"
    static let blackboxPath = "/usr/bin/prometheus-blackbox-exporter"
    static var hasPrometheus: Bool { FileManager.default.isExecutableFile(atPath: prometheusPath) }
    static var hasBlackbox: Bool { FileManager.default.isExecutableFile(atPath: blackboxPath) }

    /// Starts `executable` quietly; the caller stops it with `terminate()` (it is reaped without a wait).
    static func launch(_ executable: String, _ arguments: [String]) throws -> SpawnedProcess {
        try SpawnedProcess(executable, arguments)
    }

    /// The blackbox exporter with the two modules conn's /probe accepts.
    static func blackboxExporter(in home: TemporaryDirectory, port: Int) throws -> SpawnedProcess {
        let config = try home.write("blackbox.yml", "modules:\n  http_2xx:\n    prober: http\n  tcp_connect:\n    prober: tcp\n")
        return try launch(blackboxPath, ["--config.file=\(config)", "--web.listen-address=127.0.0.1:\(port)"])
    }
}

/// A Prometheus server with a generated configuration and its own storage, queried over its
/// HTTP API as a dashboard would.
struct RealPrometheus {
    let process: SpawnedProcess
    let port: Int

    init(configuration: String, in home: TemporaryDirectory) throws {
        port = try HTTPPorts.free()
        let file = try home.write("prometheus.yml", configuration)
        process = try PrometheusTools.launch(PrometheusTools.prometheusPath, [
            "--config.file=\(file)", "--storage.tsdb.path=\(home.path)/tsdb",
            "--web.listen-address=127.0.0.1:\(port)", "--log.level=error",
        ])
    }

    /// Ends it (SIGKILL: its storage is thrown away with the test's directory) without waiting:
    /// the reaper collects it, and no thread of the test run is held meanwhile.
    func stop() {
        process.signal(SIGKILL)
    }

    /// The value of `query` now (nil: no sample yet, or more than one series answered).
    func query(_ query: String) async throws -> Double? {
        let outcome = try await ConnProcess.run("/usr/bin/env", ["curl", "-s", "--get", "--data-urlencode", "query=\(query)",
                                                                  "http://127.0.0.1:\(port)/api/v1/query"],
                                                environment: ProcessInfo.processInfo.environment)
        guard let object = try? JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any],
            let data = object["data"] as? [String: Any], let results = data["result"] as? [[String: Any]], results.count == 1,
            let value = results[0]["value"] as? [Any], let text = value.last as? String
        else { return nil }
        return Double(text)
    }

    /// Whether `expression` reaches `expected` within `seconds`.
    func until(_ expression: String, is expected: Double, within seconds: Double = 60) async throws -> Bool {
        try await poll(for: seconds, every: .milliseconds(250)) { try await query(expression) == expected ? true : nil } ?? false
    }
}
