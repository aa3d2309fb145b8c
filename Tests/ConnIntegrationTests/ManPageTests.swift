import ConnTestSupport
import Foundation
import Testing

/// The man pages in man/ (scripts/generate-man writes them from the help text; CI checks they
/// are current): clean for groff, and with the sections a reader looks for.
@Suite("man pages")
struct ManPageTests {
    static var pages: [URL] {
        let directory = JSONSchemaCheck.repositoryRoot.appendingPathComponent("man")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".1") }.sorted().map { directory.appendingPathComponent($0) }
    }

    /// The page formatted by groff, with its warnings (-ww: all of them), for a terminal
    /// (`-Tutf8`, as man shows it) or for groff's default device (PostScript, `-z`: warnings only).
    static func render(_ page: URL, device: [String] = ["-Tutf8"]) async throws -> ProcessOutcome {
        try await ConnProcess.run("/usr/bin/env", ["groff", "-ww", "-man"] + device + [page.path],
                                  environment: ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"])
    }

    @Test("every page formats without a warning from groff -ww")
    func groffClean() async throws {
        #expect(Self.pages.count >= 20, "man/ holds \(Self.pages.count) pages")
        for page in Self.pages {
            let outcome = try await Self.render(page)
            #expect(outcome.exitCode == 0 && outcome.standardError.isEmpty, "\(page.lastPathComponent): \(outcome.standardError)")
            #expect(!outcome.standardOutput.isEmpty, "\(page.lastPathComponent) formats to nothing (is groff installed? scripts/install-deps)")
            // Every character has a glyph on groff's default device too (U+21B3 had none).
            let printed = try await Self.render(page, device: ["-z"])
            #expect(printed.exitCode == 0 && printed.standardError.isEmpty, "\(page.lastPathComponent), default device: \(printed.standardError)")
        }
    }

    @Test("every page has EXIT STATUS and EXAMPLES (two real command lines at least); conn's also ENVIRONMENT and FILES; no 'seed'")
    func sections() throws {
        for page in Self.pages {
            let text = try String(contentsOf: page, encoding: .utf8)
            let name = page.lastPathComponent
            #expect(text.contains(".Sh \"EXIT STATUS\"") || text.contains(".Sh EXIT STATUS"), "\(name) has no EXIT STATUS")
            #expect(!text.contains(".Ex -std"), "\(name) has the generic exit status, not the real codes")
            let examples = text.components(separatedBy: ".Bd -literal -offset indent\n").dropFirst()
                .filter { $0.hasPrefix("$ ") && $0.prefix { $0 != "\n" }.contains("conn") }
            #expect(examples.count >= 2, "\(name) has \(examples.count) examples")
            if name.hasPrefix("conn.") {
                for variable in ["CONN_SERVER", "CONN_TOKEN", "CONN_TIMEOUT", "NO_COLOR", "XDG_CONFIG_HOME"] {
                    #expect(text.contains("Ev \(variable)"), "\(name): ENVIRONMENT lacks \(variable)")
                }
                for file in ["config.yaml", "conn.sqlite", "history", "plugins"] {
                    #expect(text.contains(".Sh FILES") && text.contains(file), "\(name): FILES lacks \(file)")
                }
            }
            #expect(text.range(of: "seed 00", options: .caseInsensitive) == nil, "\(name) speaks of a seed document")
        }
    }

    @Test("EXIT STATUS lists its codes in numeric order on every page; conn.1 has 1, 129, 130 and 143; every command's help says its exit codes")
    func exitStatus() async throws {
        for page in Self.pages {
            let text = try String(contentsOf: page, encoding: .utf8)
            guard let section = text.components(separatedBy: ".Sh EXIT STATUS\n").dropFirst().first?.components(separatedBy: ".Sh ").first else { continue }
            let codes = section.split(separator: "\n").compactMap { $0.hasPrefix(".It ") ? Int($0.dropFirst(4)) : nil }
            #expect(codes == codes.sorted(), "\(page.lastPathComponent): \(codes)")
            if page.lastPathComponent == "conn.1" {
                #expect([0, 1, 64, 78, 129, 130, 143].allSatisfy(codes.contains), "conn.1: \(codes)")
            }
        }
        let tree = try await TemporaryDirectory().conn(["--experimental-dump-help"])
        let root = try #require(try tree.json()["command"] as? [String: Any])
        func lacking(_ command: [String: Any], _ path: [String]) -> [String] {
            let name = command["commandName"] as? String ?? "?"
            let own = name == "help" || (command["discussion"] as? String ?? "").contains("Exit codes:") ? [] : [(path + [name]).joined(separator: " ")]
            return own + (command["subcommands"] as? [[String: Any]] ?? []).flatMap { lacking($0, path + [name]) }
        }
        #expect(lacking(root, []).isEmpty, "no exit codes in the help of \(lacking(root, []))")
    }

    @Test("every page has a whatis entry man-db can read (lexgrog: NAME is the page's name, then its description)",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/lexgrog"), "lexgrog is not installed (Debian package man-db)"))
    func whatisEntries() async throws {
        for page in Self.pages {
            let name = page.deletingPathExtension().lastPathComponent
            let outcome = try await ConnProcess.run("/usr/bin/lexgrog", [page.path], environment: ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"])
            #expect(outcome.exitCode == 0 && outcome.standardOutput.contains(": \"\(name) - "), "\(name): \(outcome.standardOutput)")
            #expect(!outcome.standardOutput.contains(" - \"\""), "\(name): the description is quoted twice: \(outcome.standardOutput)")
        }
    }

    @Test("θ, δ and − survive: written as groff escapes, shown as themselves")
    func unicode() async throws {
        let page = JSONSchemaCheck.repositoryRoot.appendingPathComponent("man/conn-clock-offset.1")
        let shown = try await Self.render(page).standardOutput
            .replacingOccurrences(of: "\u{8}.", with: "", options: .regularExpression)  // no overstrike
        #expect(shown.contains("θ = ((t2−t1)+(t3−t4))/2"), "\(shown.prefix(1500))")
        #expect(shown.contains("δ = (t4−t1)−(t3−t2)"))
    }

    @Test("a command's own options come first, then GLOBAL OPTIONS, in the page as in --help")
    func ownOptionsFirst() async throws {
        let page = JSONSchemaCheck.repositoryRoot.appendingPathComponent("man/conn-inbox-list.1")
        let source = try String(contentsOf: page, encoding: .utf8)
        let options = try #require(source.range(of: ".Sh OPTIONS"))
        let global = try #require(source.range(of: ".Sh GLOBAL OPTIONS"))
        let limit = try #require(source.range(of: ".It Fl -limit"), "\(source.prefix(3000))")
        let server = try #require(source.range(of: ".It Fl -server"))
        // The synopsis likewise.
        let synopsisLimit = try #require(source.range(of: ".Op Fl -limit"))
        let synopsisServer = try #require(source.range(of: ".Op Fl -server"))
        #expect(synopsisLimit.lowerBound < synopsisServer.lowerBound)
        #expect(options.lowerBound < limit.lowerBound && limit.lowerBound < global.lowerBound && global.lowerBound < server.lowerBound)
    }
}
