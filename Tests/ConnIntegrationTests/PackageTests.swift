import ConnTestSupport
import Foundation
import Testing

/// scripts/install, scripts/uninstall and scripts/package as a user and a packager run them. The
/// .deb is installed for real with dpkg, so this suite runs in scripts/test's second, serial
/// phase: while it is installed, /usr/bin/conn-server is a plugin every other test would see.
@Suite("install, uninstall and the Debian package")
struct PackageTests {
    static let root = JSONSchemaCheck.repositoryRoot.path
    static let systemPath = "/usr/bin:/bin:/usr/sbin:/sbin"

    /// Runs one of the repository's scripts (or any program) with a plain environment.
    static func run(_ program: String, _ arguments: [String], environment: [String: String] = [:]) async throws -> ProcessOutcome {
        let executable = program.hasPrefix("/") ? program : root + "/" + program
        return try await ConnProcess.run(executable, arguments,
                                         environment: ["PATH": systemPath, "HOME": NSTemporaryDirectory(), "LC_ALL": "C.UTF-8"]
                                             .merging(environment) { $1 })
    }

    static func mode(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue
    }

    static func tree(_ directory: String) -> [String] {
        (FileManager.default.enumerator(atPath: directory)?.allObjects as? [String] ?? []).sorted()
    }

    @Test("scripts/install --destdir puts every manifest file in place with its mode; the installed uninstaller leaves the directory empty")
    func installAndUninstall() async throws {
        let home = try TemporaryDirectory()
        let destdir = home.path + "/stage"
        let binaries = ConnProcess.productsDirectory
        let installed = try await Self.run("scripts/install", ["--prefix", "/usr/local", "--destdir", destdir, "--bin", binaries])
        #expect(installed.exitCode == 0, "\(installed.standardError)")
        let prefix = destdir + "/usr/local"
        let manifest = try String(contentsOfFile: prefix + "/share/conn/install-manifest", encoding: .utf8)
        let entries = manifest.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") }
        let files = entries.filter { !$0.hasSuffix("/") }
        for expected in ["bin/conn", "bin/conn-server", "share/man/man1/conn.1.gz", "share/man/man1/conn-agent-run.1.gz",
                         "share/man/man1/conn-server.1.gz", "share/bash-completion/completions/conn", "share/zsh/site-functions/_conn",
                         "share/fish/vendor_completions.d/conn.fish", "lib/systemd/user/conn-agent.service",
                         "share/doc/conn/copyright", "share/conn/uninstall", "share/conn/install-manifest"] {
            #expect(files.contains(expected), "the manifest lacks \(expected)")
        }
        let manPages = try FileManager.default.contentsOfDirectory(atPath: Self.root + "/man").filter { $0.hasSuffix(".1") }
        #expect(files.filter { $0.hasPrefix("share/man/man1/") }.count == manPages.count)
        for file in files {
            let executable = file.hasPrefix("bin/") || file == "share/conn/uninstall"
            #expect(Self.mode(prefix + "/" + file) == (executable ? 0o755 : 0o644), "\(file): mode \(String(Self.mode(prefix + "/" + file) ?? 0, radix: 8))")
        }
        // Everything in the tree is in the manifest, and nothing else was written.
        let written = Self.tree(prefix).filter { !FileManager.default.isDirectory(prefix + "/" + $0) }
        #expect(Set(written) == Set(files), "not in the manifest: \(Set(written).subtracting(files)); missing: \(Set(files).subtracting(written))")

        // What was installed is what the repository has, and it runs.
        let unit = try String(contentsOfFile: prefix + "/lib/systemd/user/conn-agent.service", encoding: .utf8)
        #expect(unit.contains("ExecStart=/usr/local/bin/conn agent\n"), "\(unit)")
        let page = try await Self.run("/bin/gzip", ["-dc", prefix + "/share/man/man1/conn-probe.1.gz"])
        #expect(page.standardOutput == (try String(contentsOfFile: Self.root + "/man/conn-probe.1", encoding: .utf8)))
        let completion = try String(contentsOfFile: prefix + "/share/bash-completion/completions/conn", encoding: .utf8)
        #expect(completion == (try String(contentsOfFile: Self.root + "/completions/conn.bash", encoding: .utf8)))
        let copyright = try String(contentsOfFile: prefix + "/share/doc/conn/copyright", encoding: .utf8)
        #expect(copyright.contains("GPL-3.0-or-later") && copyright.contains("swift-packages/GRDB.swift/*") && copyright.contains("License: MIT"))
        let version = try await Self.run(prefix + "/bin/conn", ["--version"])
        #expect(version.exitCode == 0 && version.standardOutput.hasPrefix("conn "), "\(version.standardOutput) \(version.standardError)")

        let removed = try await Self.run(prefix + "/share/conn/uninstall", ["--destdir", destdir])
        #expect(removed.exitCode == 0, "\(removed.standardError)")
        #expect(Self.tree(destdir).isEmpty, "left behind: \(Self.tree(destdir))")
        let again = try await Self.run("scripts/uninstall", ["--prefix", "/usr/local", "--destdir", destdir])
        #expect(again.exitCode == 66 && again.standardError.contains("install-manifest"), "\(again.exitCode) \(again.standardError)")
    }

    @Test("a user's prefix: the unit goes where the user's systemd looks; a directory that was there stays; bad usage is 64")
    func userPrefixAndBadUsage() async throws {
        let home = try TemporaryDirectory()
        let prefix = home.path + "/.local"
        try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        try home.write(".local/bin/mine", "#!/bin/sh\n", mode: 0o755)
        let installed = try await Self.run("scripts/install", ["--prefix", prefix, "--bin", ConnProcess.productsDirectory],
                                           environment: ["HOME": home.path, "PATH": prefix + "/bin:" + Self.systemPath])
        #expect(installed.exitCode == 0, "\(installed.standardError)")
        #expect(FileManager.default.fileExists(atPath: prefix + "/share/systemd/user/conn-agent.service"))
        #expect(installed.standardError.contains("to remove it: \(prefix)/share/conn/uninstall"), "\(installed.standardError)")
        let removed = try await Self.run(prefix + "/share/conn/uninstall", [], environment: ["HOME": home.path])
        #expect(removed.exitCode == 0, "\(removed.standardError)")
        #expect(Self.tree(prefix) == ["bin", "bin/mine"], "\(Self.tree(prefix))")

        for (arguments, message) in [(["--prefix"], "--prefix needs a directory"), (["--prefix", "relative"], "absolute path"),
                                     (["--frobnicate"], "unknown argument '--frobnicate'")] {
            let refused = try await Self.run("scripts/install", arguments)
            #expect(refused.exitCode == 64 && refused.standardError.contains(message), "\(arguments): \(refused.exitCode) \(refused.standardError)")
        }
        let noBinaries = try await Self.run("scripts/install", ["--destdir", home.path + "/x", "--bin", home.path])
        #expect(noBinaries.exitCode == 66 && noBinaries.standardError.contains("no executable conn in \(home.path)"), "\(noBinaries.standardError)")
    }

    /// The release binaries (static Swift runtime) that a package ships; CI builds them before the tests.
    static var releaseBinaries: String? {
        let directory = root + "/.build/release"
        return FileManager.default.isExecutableFile(atPath: directory + "/conn") ? directory : nil
    }

    @Test("scripts/package refuses (65) a version CHANGELOG.md has no section for, before building anything; this conn's version has one")
    func changelogNamesTheVersion() async throws {
        let home = try TemporaryDirectory()
        let binaries = home.path + "/bin"
        try FileManager.default.createDirectory(atPath: binaries, withIntermediateDirectories: true)
        // Binaries that report a version no release has had.
        for name in ["conn", "conn-server"] {
            try "#!/bin/sh\necho '{\"version\":\"9.8.7\"}'\n".write(toFile: "\(binaries)/\(name)", atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: "\(binaries)/\(name)")
        }
        let refused = try await Self.run("scripts/package", ["--bin", binaries, "--output", home.path + "/dist"],
                                         environment: ["DEBFULLNAME": "conn tests", "DEBEMAIL": "packager@conn.example"])
        #expect(refused.exitCode == 65, "\(refused.standardError)")
        #expect(refused.standardError.contains("CHANGELOG.md has no section for 9.8.7"), "\(refused.standardError)")
        #expect(Self.tree(home.path + "/dist").isEmpty, "nothing is built: \(Self.tree(home.path + "/dist"))")
        let changelog = try String(contentsOfFile: Self.root + "/CHANGELOG.md", encoding: .utf8)
        let current = try await version()
        #expect(changelog.split(separator: "\n").contains { $0.hasPrefix("## \(current) - ") }, "CHANGELOG.md needs a section for \(current)")
        #expect(changelog.split(separator: "\n").contains("## Unreleased"))
    }

    @Test("the .deb: lintian-clean, installed with dpkg -i, found by man, bash, zsh and fish, needs only its Depends:, removed by dpkg -r",
          .enabled(if: getuid() == 0, "dpkg -i needs root"),
          .enabled(if: releaseBinaries != nil || ProcessInfo.processInfo.environment["CONN_REQUIRE_PACKAGE_TEST"] != nil,
                   "no release build in .build/release (scripts/build-release; CI builds it first)"))
    func debianPackage() async throws {
        let binaries = try #require(Self.releaseBinaries, "CI must build the release binaries before the tests")
        let existing = try await Self.run("/usr/bin/dpkg-query", ["-W", "-f=${Status}", "conn"])
        try #require(!existing.standardOutput.contains("installed"), "a conn package is already installed here: this test would replace it")
        let home = try TemporaryDirectory()
        let output = home.path + "/dist"
        let built = try await Self.run("scripts/package", ["--bin", binaries, "--output", output],
                                       environment: ["DEBFULLNAME": "conn tests", "DEBEMAIL": "packager@conn.example",
                                                     // dpkg-deb's own setting: xz -1, not -6, saves ~30 s here.
                                                     "DPKG_DEB_COMPRESSOR_LEVEL": "1"])
        #expect(built.exitCode == 0, "\(built.standardError.suffix(3000))")
        let artefacts = built.standardOutput.split(separator: "\n").map(String.init)
        let expectedVersion = try await version(), arch = try await architecture()
        // Two packages: the tool, and the reference server on its own.
        let deb = try #require(artefacts.first { $0.hasSuffix("/conn_\(expectedVersion)_\(arch).deb") }, "\(built.standardOutput)")
        let serverDeb = try #require(artefacts.first { $0.hasSuffix("/conn-server_\(expectedVersion)_\(arch).deb") }, "\(built.standardOutput)")
        let tarball = try #require(artefacts.first { $0.hasSuffix(".tar.gz") })
        let checked = try await Self.run("/bin/sh", ["-c", "cd \"$0\" && sha256sum -c SHA256SUMS", output])
        #expect(checked.exitCode == 0 && checked.standardOutput.contains(": OK"), "\(checked.standardOutput) \(checked.standardError)")

        let installed = try await Self.run("/usr/bin/dpkg", ["-i", deb])
        #expect(installed.exitCode == 0, "\(installed.standardOutput) \(installed.standardError)")
        let listed = try await Self.run("/usr/bin/dpkg", ["-L", "conn"])
        let files = listed.standardOutput.split(separator: "\n").map(String.init).filter { !FileManager.default.isDirectory($0) }
        #expect(files.contains("/usr/bin/conn") && files.contains("/usr/lib/systemd/user/conn-agent.service"), "\(files)")
        #expect(!files.contains { $0.contains("conn-server") }, "the tool's package holds no server: \(files)")
        #expect(!FileManager.default.fileExists(atPath: "/usr/bin/conn-server"))
        // The server's package beside it: its binary, its page, its own copyright and changelog.
        let serverInstalled = try await Self.run("/usr/bin/dpkg", ["-i", serverDeb])
        #expect(serverInstalled.exitCode == 0, "\(serverInstalled.standardOutput) \(serverInstalled.standardError)")
        let serverFiles = try await Self.run("/usr/bin/dpkg", ["-L", "conn-server"]).standardOutput.split(separator: "\n").map(String.init)
            .filter { !FileManager.default.isDirectory($0) }
        #expect(Set(serverFiles).isSuperset(of: ["/usr/bin/conn-server", "/usr/share/man/man1/conn-server.1.gz",
                                                 "/usr/share/doc/conn-server/copyright", "/usr/share/doc/conn-server/changelog.gz"]), "\(serverFiles)")
        #expect(!serverFiles.contains("/usr/bin/conn"), "\(serverFiles)")

        let version = try await Self.run("/usr/bin/conn", ["--version"])
        #expect(version.exitCode == 0 && version.standardOutput.hasPrefix("conn \(expectedVersion) "), "\(version.standardOutput)")
        let manual = try await Self.run("/usr/bin/man", ["-w", "conn"])
        #expect(manual.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "/usr/share/man/man1/conn.1.gz", "\(manual)")
        // Under the names people type, as git's: `man conn-probe`, `man conn-inbox-list`.
        for name in ["conn-probe", "conn-inbox-list", "conn-agent-run"] {
            let page = try await Self.run("/usr/bin/man", ["-w", name])
            #expect(page.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "/usr/share/man/man1/\(name).1.gz", "\(page)")
        }
        // bash-completion loads a command's completion from its directory on first use.
        let bash = try await Self.run("/bin/bash", ["-c", "source /usr/share/bash-completion/bash_completion && __load_completion conn && complete -p conn"])
        #expect(bash.exitCode == 0 && bash.standardOutput.contains(" conn"), "\(bash.standardOutput) \(bash.standardError)")
        #expect(TestTools.acceptable(TestTools.zsh) && TestTools.acceptable(TestTools.fish), "zsh or fish is missing under .ci/run")
        if let zshPath = TestTools.zsh {
            let zsh = try await Self.run(zshPath, ["-fc", "autoload -U compinit && compinit -u -D && print ${_comps[conn]}"])
            #expect(zsh.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "_conn", "\(zsh.standardOutput) \(zsh.standardError)")
        }
        if let fishPath = TestTools.fish {
            let fish = try await Self.run(fishPath, ["-c", "complete -C 'conn pro'"], environment: ["HOME": home.path])
            #expect(fish.standardOutput.hasPrefix("probe"), "\(fish.standardOutput) \(fish.standardError)")
        }

        // Every library a binary names (NEEDED) belongs to a package its own .deb depends on;
        // what those load in turn (libtinfo6 under readline) to a package they depend on.
        for (binary, owner) in [("/usr/bin/conn", "conn"), ("/usr/bin/conn-server", "conn-server")] {
            let depends = try await Self.run("/usr/bin/dpkg-query", ["-W", "-f=${Depends}", owner]).standardOutput
            let declared = Self.packageNames(depends)
            var reachable = declared
            for package in declared {
                let theirs = try await Self.run("/usr/bin/dpkg-query", ["-W", "-f=${Pre-Depends},${Depends}", package]).standardOutput
                reachable.formUnion(Self.packageNames(theirs))
            }
            #expect(declared.contains("libreadline8") == (owner == "conn"), "only the tool links readline: \(owner) Depends: \(depends)")
            let needed = Set(try await Self.run("/usr/bin/objdump", ["-p", binary]).standardOutput.split(separator: "\n")
                .filter { $0.contains("NEEDED") }.compactMap { $0.split(separator: " ").last.map(String.init) })
            #expect(needed.contains("libreadline.so.8") || binary.hasSuffix("conn-server"), "\(binary): \(needed)")
            let loaded = try await Self.run("/usr/bin/ldd", [binary]).standardOutput
            for line in loaded.split(separator: "\n") where line.contains("=> /") {
                let fields = line.split(separator: " ").map(String.init)
                let (name, path) = (fields[0].trimmingCharacters(in: .whitespaces), fields[2])
                var owner = try await Self.run("/usr/bin/dpkg", ["-S", path])
                if owner.exitCode != 0 { owner = try await Self.run("/usr/bin/dpkg", ["-S", URL(fileURLWithPath: path).resolvingSymlinksInPath().path]) }
                let package = String(owner.standardOutput.split(separator: ":").first ?? "")
                let allowed = needed.contains(name) ? declared : reachable
                #expect(allowed.contains(package), "\(binary) loads \(path) from \(package.isEmpty ? "no package" : package), which Depends: \(depends) does not bring")
            }
        }

        let removed = try await Self.run("/usr/bin/dpkg", ["-r", "conn", "conn-server"])
        #expect(removed.exitCode == 0, "\(removed.standardError)")
        _ = try await Self.run("/usr/bin/dpkg", ["-P", "conn", "conn-server"])  // and dpkg's record of them
        let left = (files + serverFiles).filter { FileManager.default.fileExists(atPath: $0) }
        #expect(left.isEmpty, "dpkg -r left \(left)")

        // The tarball is the same install step for /usr/local, with its uninstaller, unpacked
        // into a prefix that has a life of its own: directories that were there, a `man` link
        // to share/man as many prefixes have, and a file of the user's in share/conn.
        let unpacked = home.path + "/unpacked"
        let before = ["bin", "lib", "share/man/man1", "share/doc", "share/conn"]
        for directory in before {
            try FileManager.default.createDirectory(atPath: unpacked + "/" + directory, withIntermediateDirectories: true)
        }
        try FileManager.default.createSymbolicLink(atPath: unpacked + "/man", withDestinationPath: "share/man")
        try "mine\n".write(toFile: unpacked + "/share/conn/notes.txt", atomically: true, encoding: .utf8)
        let treeBefore = Self.tree(unpacked)
        let extracted = try await Self.run("/bin/tar", ["-xzf", tarball, "-C", unpacked, "--strip-components=1"])
        #expect(extracted.exitCode == 0, "\(extracted.standardError)")
        #expect(FileManager.default.isExecutableFile(atPath: unpacked + "/bin/conn"))
        #expect(FileManager.default.fileExists(atPath: unpacked + "/share/man/man1/conn.1.gz"))
        let unpackedRemoved = try await Self.run(unpacked + "/share/conn/uninstall", [])
        #expect(unpackedRemoved.exitCode == 0, "\(unpackedRemoved.standardError)")
        // Exactly what was there before stays; of what the tarball made, at most empty
        // directories of the common kind (bin/, share/bash-completion/…) that it cannot know it made.
        let treeAfter = Self.tree(unpacked)
        #expect(Set(treeBefore).isSubset(of: Set(treeAfter)), "removed what it did not make: \(Set(treeBefore).subtracting(treeAfter))")
        let leftBehind = Set(treeAfter).subtracting(treeBefore)
        #expect(leftBehind.allSatisfy { FileManager.default.isDirectory(unpacked + "/" + $0) && !$0.contains("conn") }, "left behind: \(leftBehind.sorted())")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: unpacked + "/man")) == "share/man")
        #expect((try? String(contentsOfFile: unpacked + "/share/conn/notes.txt", encoding: .utf8)) == "mine\n")
    }

    /// The package names of a Depends: field ("libc6 (>= 2.35), a | b" → libc6, a, b).
    static func packageNames(_ field: String) -> Set<String> {
        Set(field.split(whereSeparator: { $0 == "," || $0 == "|" }).compactMap { $0.split(separator: " ").first.map(String.init) })
    }

    func version() async throws -> String {
        let answer = try await Self.run(ConnProcess.connPath, ["--version", "--json"])
        return try answer.json()["version"] as? String ?? ""
    }

    func architecture() async throws -> String {
        try await Self.run("/usr/bin/dpkg", ["--print-architecture"]).standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

extension FileManager {
    func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }
}
