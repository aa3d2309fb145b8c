import ConnTestSupport
import Foundation
import Testing

/// Every relative link of the project's Markdown (README, the guides, the reference pages,
/// CHANGELOG, CONTRIBUTING, ARCHITECTURE, BENCHMARKS) leads somewhere: the file exists, and an
/// anchor names a heading of it as GitHub spells anchors. Moving a section between pages cannot
/// leave a link behind.
@Suite("links between the documents")
struct DocumentLinksTests {
    static let root = JSONSchemaCheck.repositoryRoot

    static var documents: [String] {
        let top = ["README.md", "CHANGELOG.md", "CONTRIBUTING.md", "ARCHITECTURE.md", "BENCHMARKS.md"]
        let docs = (FileManager.default.enumerator(atPath: root.appendingPathComponent("docs").path)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        return top + docs.sorted()
    }

    /// GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, blanks as `-`.
    static func anchor(_ heading: String) -> String {
        String(heading.lowercased().compactMap { character -> Character? in
            if character == " " { return "-" }
            if character.isLetter || character.isNumber || character == "-" || character == "_" { return character }
            return nil
        })
    }

    static func anchors(of text: String) -> Set<String> {
        var inFence = false
        var anchors: Set<String> = []
        for line in text.split(separator: "\n") {
            if line.hasPrefix("```") { inFence.toggle() }
            if !inFence, line.hasPrefix("#"), let space = line.firstIndex(of: " ") {
                anchors.insert(anchor(String(line[line.index(after: space)...]).trimmingCharacters(in: .whitespaces)))
            }
        }
        return anchors
    }

    @Test("every relative link and anchor resolves")
    func linksResolve() throws {
        var checked = 0
        for document in Self.documents {
            let url = Self.root.appendingPathComponent(document)
            let text = try String(contentsOf: url, encoding: .utf8)
            var inFence = false
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("```") { inFence.toggle() }
                if inFence { continue }
                for match in line.matches(of: /\]\(([^)\s]+)\)/) {
                    let target = String(match.output.1)
                    if target.contains("://") || target.hasPrefix("mailto:") { continue }
                    let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                    let file = parts[0].isEmpty ? url : url.deletingLastPathComponent().appendingPathComponent(parts[0]).standardizedFileURL
                    checked += 1
                    #expect(FileManager.default.fileExists(atPath: file.path), "\(document): \(target) — no such file")
                    if parts.count == 2, !file.hasDirectoryPath, file.pathExtension == "md",
                       let linked = try? String(contentsOf: file, encoding: .utf8) {
                        #expect(Self.anchors(of: linked).contains(parts[1]), "\(document): \(target) — no such heading in \(file.lastPathComponent)")
                    }
                }
            }
        }
        #expect(checked >= 40, "only \(checked) links checked")
    }

    @Test("no diary words in the tree: no line names a work session by its number, which means nothing to a reader")
    func noDiaryWords() throws {
        // What git tracks: the sources, tests, scripts, docs and the top-level files (not the
        // build, the benchmark results or the package output).
        let top = try FileManager.default.contentsOfDirectory(atPath: Self.root.path)
            .filter { !$0.hasPrefix(".build") && ![".git", "dist"].contains($0) }
        var read = 0
        var found: [String] = []
        var paths: [String] = []
        for entry in top {
            guard let enumerator = FileManager.default.enumerator(atPath: Self.root.appendingPathComponent(entry).path) else { continue }
            if FileManager.default.isDirectory(Self.root.appendingPathComponent(entry).path) {
                while let path = enumerator.nextObject() as? String {
                    if entry == "bench" && path.hasPrefix("results") { enumerator.skipDescendants(); continue }
                    paths.append(entry + "/" + path)
                }
            } else {
                paths.append(entry)
            }
        }
        for path in paths {
            guard let data = FileManager.default.contents(atPath: Self.root.appendingPathComponent(path).path), data.count < 4 << 20,
                  let text = String(data: data, encoding: .utf8) else { continue }
            read += 1
            guard text.contains("ession") else { continue }  // Swift's Regex is slow: only where it may match
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains("ession") && line.contains(/(?i)\bsession \d+\b|\bsessions \d+(?:[–-]\d+)?\b/) {
                found.append("\(path):\(number + 1): \(line.prefix(120))")
            }
        }
        #expect(read > 300, "only \(read) files read")
        #expect(found.isEmpty, "\(found.count) lines:\n\(found.prefix(20).joined(separator: "\n"))")
    }

    @Test("anchors are spelt as GitHub spells them")
    func anchorSpelling() {
        #expect(Self.anchor("The state (probe, watch, the REPL)") == "the-state-probe-watch-the-repl")
        #expect(Self.anchor("Keep this machine's clock from the back end (chrony)") == "keep-this-machines-clock-from-the-back-end-chrony")
        #expect(Self.anchor("Your own API: conn request and conn get") == "your-own-api-conn-request-and-conn-get")
    }
}
