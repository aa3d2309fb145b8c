import Foundation

/// Checks output against its JSON Schema in docs/json/ with scripts/validate-json (Python's
/// jsonschema, Draft 2020-12): a real validator, not a spot-check of keys.
public enum JSONSchemaCheck {
    public static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The violations of `text` (one document or JSON Lines) against `schema` (a name such as
    /// `probe`); empty when it conforms.
    public static func violations(of text: String, schema: String) async throws -> String {
        let outcome = try await ConnProcess.run(
            "/usr/bin/env", ["python3", repositoryRoot.appendingPathComponent("scripts/validate-json").path, schema],
            environment: ProcessInfo.processInfo.environment, input: text)
        if outcome.exitCode == 0 { return "" }
        let reason = outcome.standardError.isEmpty ? "exit \(outcome.exitCode)" : outcome.standardError
        return "\(schema): \(reason)\n--- the output was:\n\(text.prefix(3000))"
    }
}
