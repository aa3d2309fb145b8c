import ConnTestSupport
import Foundation
import Testing

/// contrib/prometheus/ as a user takes it: the alert rules pass their own promtool unit tests,
/// and the example configuration is one Prometheus accepts.
@Suite("contrib/prometheus")
struct PrometheusContribTests {
    static let promtoolPath = ["/usr/bin/promtool", "/usr/local/bin/promtool"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let directory = JSONSchemaCheck.repositoryRoot.appendingPathComponent("contrib/prometheus").path

    /// promtool with a command and a file of contrib/prometheus (it finds the files that one
    /// names next to it).
    func promtool(_ command: [String], _ file: String) async throws -> ProcessOutcome {
        try await ConnProcess.run(Self.promtoolPath!, command + [Self.directory + "/" + file], environment: ProcessInfo.processInfo.environment)
    }

    @Test("the alert rules are valid and pass promtool test rules (agent down or absent, server unreachable, portal, clock, stale clock, backlog, certificate)",
          .enabled(if: promtoolPath != nil, "promtool is not installed (Debian package prometheus; scripts/install-deps)"))
    func alertRules() async throws {
        let checked = try await promtool(["check", "rules"], "conn-alerts.yml")
        #expect(checked.exitCode == 0 && checked.standardOutput.contains("8 rules found"), "\(checked.standardOutput)\(checked.standardError)")
        let tested = try await promtool(["test", "rules"], "conn-alerts.test.yml")
        #expect(tested.exitCode == 0 && tested.standardOutput.contains("SUCCESS"), "\(tested.standardOutput)\(tested.standardError)")
    }

    @Test("the example scrape configuration is accepted", .enabled(if: promtoolPath != nil, "promtool is not installed"))
    func scrapeConfig() async throws {
        let checked = try await promtool(["check", "config"], "prometheus.yml")
        #expect(checked.exitCode == 0, "\(checked.standardOutput)\(checked.standardError)")
    }
}
