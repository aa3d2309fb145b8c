import ConnTestSupport
import Foundation
import Testing

/// contrib/systemd/conn-agent.service, checked by systemd itself.
@Suite("systemd unit")
struct ServiceUnitTests {
    static let analyze = "/usr/bin/systemd-analyze"

    @Test("systemd-analyze verify accepts the unit without a warning (ExecStart pointed at the built conn)",
          .enabled(if: FileManager.default.isExecutableFile(atPath: analyze), "needs systemd-analyze (the systemd package)"))
    func verifies() async throws {
        let home = try TemporaryDirectory()
        let unit = try String(contentsOf: JSONSchemaCheck.repositoryRoot.appendingPathComponent("contrib/systemd/conn-agent.service"), encoding: .utf8)
        #expect(unit.contains("Type=notify") && unit.contains("ExecStart=/usr/bin/conn agent") && unit.contains("Restart=on-failure"))
        let path = try home.write("conn-agent.service", unit.replacingOccurrences(of: "/usr/bin/conn", with: ConnProcess.connPath))
        // --man=no: the pages are installed by a package, not here.
        let outcome = try await ConnProcess.run(Self.analyze, ["verify", "--man=no", path], environment: ["PATH": "/usr/bin:/bin"])
        #expect(outcome.exitCode == 0 && outcome.standardError.isEmpty && outcome.standardOutput.isEmpty,
                "\(outcome.standardOutput)\(outcome.standardError)")
    }
}
