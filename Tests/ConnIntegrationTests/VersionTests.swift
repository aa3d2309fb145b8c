import ConnTestSupport
import Foundation
import Testing

/// `conn --version`: the version, the commit the binary was built from and that commit's date.
@Suite("version")
struct VersionTests {
    @Test("text: conn 0.2.0 (commit, date), the commit one of this repository's; --json as its schema says; anywhere on the line")
    func version() async throws {
        let home = try TemporaryDirectory()
        let text = try await home.conn(["--version"])
        #expect(text.exitCode == 0)
        let line = text.standardOutput.trimmingCharacters(in: .newlines)
        let match = try #require(line.wholeMatch(of: /conn (\d+\.\d+\.\d+) \(([0-9a-f]{7}), (\d{4}-\d{2}-\d{2})\)/), "\(line)")
        // The commit is a real one of this checkout (the tests run from one).
        let known = try await ConnProcess.run("/usr/bin/env", ["git", "-C", JSONSchemaCheck.repositoryRoot.path, "cat-file", "-e", "\(match.2)^{commit}"],
                                              environment: ProcessInfo.processInfo.environment)
        #expect(known.exitCode == 0, "\(match.2) is not a commit here: \(known.standardError)")

        let json = try await home.conn(["--version", "--json"])
        #expect(try await JSONSchemaCheck.violations(of: json.standardOutput, schema: "version").isEmpty)
        let object = try json.json()
        #expect(object["version"] as? String == String(match.1) && object["commit"] as? String == String(match.2) && object["date"] as? String == String(match.3))
        #expect(try await home.conn(["--json", "probe", "--version"]).json()["commit"] as? String == String(match.2))
        #expect(try await home.conn(["inbox", "--version"]).standardOutput == text.standardOutput)
    }
}
