import ConnTestSupport
import Foundation
import Testing

/// scripts/lib/write-copyright: the copyright file of the package and the tarball names every
/// component built into the binaries, with its licence, or packaging stops.
@Suite("the copyright file")
struct CopyrightFileTests {
    static let script = JSONSchemaCheck.repositoryRoot.appendingPathComponent("scripts/lib/write-copyright").path

    @Test("this tree: a stanza for every pin of Package.resolved, and ICU's licence as text, not a URL")
    func everyPinListed() async throws {
        let home = try TemporaryDirectory()
        let output = home.path + "/copyright"
        let written = try await ConnProcess.run("/usr/bin/python3", [Self.script, output], environment: ["PATH": "/usr/bin:/bin"])
        #expect(written.exitCode == 0, "\(written.standardError)")
        let text = try String(contentsOfFile: output, encoding: .utf8)
        let resolved = JSONSchemaCheck.repositoryRoot.appendingPathComponent("Package.resolved")
        let pins = try #require((try JSONSerialization.jsonObject(with: Data(contentsOf: resolved)) as? [String: Any])?["pins"] as? [[String: Any]])
        #expect(!pins.isEmpty)
        for pin in pins {
            let identity = try #require(pin["identity"] as? String)
            #expect(text.contains("Comment: \(identity) "), "\(identity) is not listed")
        }
        #expect(text.contains("License: Unicode-3.0\n UNICODE LICENSE V3") && !text.contains("https://www.unicode.org/license.txt"))
    }

    @Test("a pin without a checkout, a checkout without a licence, a licence it does not know: status 1 naming each, nothing written")
    func refusesToLeaveOut() async throws {
        let home = try TemporaryDirectory()
        let root = home.path + "/tree"
        let checkouts = root + "/.build/checkouts"
        try home.write("tree/LICENSE", try String(contentsOf: JSONSchemaCheck.repositoryRoot.appendingPathComponent("LICENSE"), encoding: .utf8))
        try home.write("tree/.build/checkouts/good/LICENSE", "MIT License\n\nCopyright (c) 2024 Good People\n\nPermission is hereby granted, free of charge, to any person…\n")
        try FileManager.default.createDirectory(atPath: checkouts + "/unlicensed", withIntermediateDirectories: true)
        try home.write("tree/.build/checkouts/odd/LICENSE", "All rights reserved. Ask us.\n")
        let pins = ["good", "unlicensed", "odd", "absent"].map { name in
            #"{"identity": "\#(name)", "kind": "remoteSourceControl", "location": "https://github.com/example/\#(name).git", "state": {"revision": "0123456789abcdef", "version": "1.0.0"}}"#
        }
        try home.write("tree/Package.resolved", #"{"pins": [\#(pins.joined(separator: ","))], "version": 3}"#)
        let output = home.path + "/copyright"
        let refused = try await ConnProcess.run("/usr/bin/python3", [Self.script, output, "--root", root], environment: ["PATH": "/usr/bin:/bin"])
        #expect(refused.exitCode == 1, "\(refused.standardError)")
        for named in ["unlicensed: no LICENSE file", "odd: the licence", "absent: no checkout"] {
            #expect(refused.standardError.contains(named), "\(named) in \(refused.standardError)")
        }
        #expect(!refused.standardError.contains("good"), "\(refused.standardError)")
        #expect(!FileManager.default.fileExists(atPath: output))

        // Without Package.resolved there is nothing to list from: refused too.
        try FileManager.default.removeItem(atPath: root + "/Package.resolved")
        let unresolved = try await ConnProcess.run("/usr/bin/python3", [Self.script, output, "--root", root], environment: ["PATH": "/usr/bin:/bin"])
        #expect(unresolved.exitCode == 1 && unresolved.standardError.contains("resolve the packages first"), "\(unresolved.standardError)")
    }
}

/// Package.pins: what CI tested, committed, since Package.resolved cannot be here.
@Suite("pinned packages")
struct PinnedPackagesTests {
    static let script = JSONSchemaCheck.repositoryRoot.appendingPathComponent("scripts/lib/check-pins").path

    @Test("this tree resolved exactly what Package.pins names (a dependency update must come with the file)")
    func thisTreeMatches() async throws {
        let checked = try await ConnProcess.run("/usr/bin/python3", [Self.script], environment: ["PATH": "/usr/bin:/bin"])
        #expect(checked.exitCode == 0, "\(checked.standardError)")
    }

    @Test("another version, a package gone, a package added: refused with 1, each named")
    func differencesRefused() async throws {
        let home = try TemporaryDirectory()
        let pin = { (name: String, version: String) in
            #"{"identity": "\#(name)", "kind": "remoteSourceControl", "location": "https://github.com/example/\#(name)", "state": {"revision": "0123", "version": "\#(version)"}}"#
        }
        try home.write("tree/Package.resolved", #"{"pins": [\#(pin("kept", "1.0.0")), \#(pin("bumped", "2.1.0")), \#(pin("added", "0.1.0"))], "version": 3}"#)
        try home.write("tree/Package.pins", "# pins\n\nkept 1.0.0\nbumped 2.0.0\ngone 3.0.0\n")
        let refused = try await ConnProcess.run("/usr/bin/python3", [Self.script, "--root", home.path + "/tree"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(refused.exitCode == 1, "\(refused.standardError)")
        for named in ["bumped: resolved 2.1.0, pinned 2.0.0", "gone 3.0.0 is pinned but not resolved", "added 0.1.0 is resolved but not pinned"] {
            #expect(refused.standardError.contains(named), "\(named) in \(refused.standardError)")
        }
        #expect(!refused.standardError.contains("kept"))
    }
}
