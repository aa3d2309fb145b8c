import ConnTestSupport
import Foundation
import Testing

/// Swift Testing's `#expect` takes `(a?["k"] as? String ?? "").contains(x)` apart as a call on an
/// optional receiver (`$0?.contains($1)`), and the check passes whatever the value holds: four
/// checks of a probe rung's detail could not fail that way. Bind the value first
/// (`let detail = a?["k"] as? String ?? ""`, then `#expect(detail.contains(x))`).
@Suite("checks that cannot fail")
struct UnfailingCheckTests {
    /// A check whose whole condition is a method called on a parenthesised value that holds
    /// optional chaining and `??`, on one line or over several.
    static var unfailing: Regex<Substring> { /#(?:expect|require)\(\((?:[^()]|\([^()]*\))*\?[.\[](?:[^()]|\([^()]*\))*\?\?(?:[^()]|\([^()]*\))*\)\.\w+[({]/ }

    /// The lines where such checks start.
    static func unfailingLines(in text: String) -> [Int] {
        guard text.contains("??"), text.contains("((") else { return [] }
        return text.matches(of: unfailing).map { match in
            text[..<match.range.lowerBound].reduce(into: 1) { lines, character in if character == "\n" { lines += 1 } }
        }
    }

    @Test("the form is found, and only it: bound first, compared, or with its own == it is a check that can fail")
    func findsTheForm() {
        #expect(Self.unfailingLines(in: #"#expect((rung?["detail"] as? String ?? "").contains("absolute form"), "\(rung)")"#) == [1])
        #expect(Self.unfailingLines(in: #"    try #require((a?.b ?? "").hasPrefix("x"))"#) == [1])
        #expect(Self.unfailingLines(in: "let a = 1\n#expect((rung?[\"detail\"] as? String\n    ?? \"\").contains(\"x\"),\n    \"why\")") == [2])
        #expect(Self.unfailingLines(in: #"#expect(detail.contains("absolute form"))"#).isEmpty)
        #expect(Self.unfailingLines(in: #"#expect(x == 1 && (rung?["detail"] as? String ?? "").contains("y"))"#).isEmpty)
        #expect(Self.unfailingLines(in: #"#expect(abs((spread?.stddevMs ?? 0) - 2) < 1e-9)"#).isEmpty)
        #expect(Self.unfailingLines(in: #"#expect(error?.message.contains(fragment) == true, "\(error?.message ?? "")")"#).isEmpty)
    }

    @Test("no test holds one")
    func noneInTheTests() throws {
        let tests = JSONSchemaCheck.repositoryRoot.appendingPathComponent("Tests")
        let paths = (FileManager.default.enumerator(atPath: tests.path)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".swift") }
        var found: [String] = []
        // This file's own samples are the form, in strings.
        for path in paths where path != "ConnIntegrationTests/UnfailingCheckTests.swift" {
            let text = try String(contentsOf: tests.appendingPathComponent(path), encoding: .utf8)
            found += Self.unfailingLines(in: text).map { "Tests/\(path):\($0)" }
        }
        #expect(paths.count > 100, "only \(paths.count) test files read")
        #expect(found.isEmpty, "checks that pass whatever the value holds:\n\(found.joined(separator: "\n"))")
    }
}
