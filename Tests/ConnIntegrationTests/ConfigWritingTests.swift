import ConnTestSupport
import Foundation
import Testing

/// `conn config init|set|get|edit|profiles` through the real binary: the file is edited, not
/// regenerated; a bad value changes nothing; the editor's copy is checked and reopened; init asks
/// on a terminal (tmux) and never replaces a file silently.
@Suite("config init, set, get, edit, profiles", .serialized)
struct ConfigWritingTests {
    let home: TemporaryDirectory

    init() throws { home = try TemporaryDirectory() }

    static let file = """
        # my conn settings: keep this comment
        server: http://127.0.0.1:8080  # the local one
        profiles:
          work:
            server: http://work.example:9000
            email: me@work.example
          home:
            timeout: 3s
        """

    var fileText: String { (try? String(contentsOfFile: home.configFile, encoding: .utf8)) ?? "" }

    @Test("set keeps the comments and the other profile; a bad value or key changes nothing; get reads it back with its source")
    func setKeepsTheRest() async throws {
        try home.write("config/conn/config.yaml", Self.file)
        let set = try await home.conn(["config", "set", "timeout", "5s", "--profile", "work"])
        #expect(set.exitCode == 0, "\(set.standardError)")
        #expect(set.standardOutput.contains("timeout = 5s in profile work of \(home.configFile)"), "\(set.standardOutput)")
        let expected = Self.file.replacingOccurrences(of: "    email: me@work.example\n", with: "    email: me@work.example\n    timeout: 5s\n")
        #expect(fileText == expected)

        let server = try await home.conn(["config", "set", "server", "http://127.0.0.1:8181"])
        #expect(server.exitCode == 0)
        #expect(fileText.contains("server: http://127.0.0.1:8181  # the local one\n"))
        #expect(fileText.contains("# my conn settings: keep this comment\n"))
        #expect(fileText.contains("  home:\n    timeout: 3s"))

        let before = fileText
        let bad = try await home.conn(["config", "set", "timeout", "soon", "--profile", "home"])
        #expect(bad.exitCode == 78)
        #expect(bad.standardError.contains("conn: error: timeout was not set: timeout 'soon' is not a positive duration"), "\(bad.standardError)")
        let badServer = try await home.conn(["config", "set", "server", "ftp://x"])
        #expect(badServer.exitCode == 78, "\(badServer.standardError)")
        let unknown = try await home.conn(["config", "set", "timout", "5s"])
        #expect(unknown.exitCode == 64 && unknown.standardError.contains("did you mean 'timeout'?"), "\(unknown.standardError)")
        let profileInProfile = try await home.conn(["config", "set", "profile", "work", "--profile", "home"])
        #expect(profileInProfile.exitCode == 64)
        #expect(fileText == before, "a refused change touched the file")

        // A problem elsewhere in the file, there before the change, is named as such.
        try home.write("config/conn/config.yaml", before + "\n  lab:\n    timeout: never\n")
        let elsewhere = try await home.conn(["config", "set", "email", "a@b.cc"])
        #expect(elsewhere.exitCode == 78 && elsewhere.standardError.contains("timeout 'never'")
                    && elsewhere.standardError.contains("had this problem before the change"), "\(elsewhere.standardError)")
        try home.write("config/conn/config.yaml", before)

        let got = try await home.conn(["--profile", "work", "config", "get", "timeout", "--json"])
        let json = try got.json()
        #expect(json["value"] as? String == "5s" && json["profile"] as? String == "work")
        #expect((json["source"] as? [String: Any])?["detail"] as? String == "\(home.configFile):7", "\(json)")
        #expect(try await home.conn(["config", "get", "server"]).standardOutput == "http://127.0.0.1:8181\n")
        #expect(try await home.conn(["config", "get", "timeout"]).standardOutput == "10s\n")
        let unset = try await home.conn(["config", "get", "email"])
        #expect(unset.exitCode == 1 && unset.standardOutput.isEmpty)
        let fromEnvironment = try await home.conn(["config", "get", "timeout"], env: ["CONN_TIMEOUT": "1500ms"])
        #expect(fromEnvironment.standardOutput == "1500ms\n")
    }

    @Test("set warns when the value it wrote is not the one in use; a token makes the file 0600; VALUE - reads stdin")
    func shadowsAndSecrets() async throws {
        try home.write("config/conn/config.yaml", Self.file, mode: 0o644)
        let shadowed = try await home.conn(["config", "set", "server", "http://127.0.0.1:1"], env: ["CONN_SERVER": "http://127.0.0.1:2"])
        #expect(shadowed.exitCode == 0)
        #expect(shadowed.standardError.contains("server is still taken from environment variable CONN_SERVER"), "\(shadowed.standardError)")
        let byProfile = try await home.conn(["config", "set", "server", "http://127.0.0.1:3"], env: ["CONN_PROFILE": "work"])
        #expect(byProfile.standardError.contains("profile work's own line (\(home.configFile):5)"), "\(byProfile.standardError)")

        let token = try await home.conn(["config", "set", "token", "-"], input: "s3cret-token\n")
        #expect(token.exitCode == 0, "\(token.standardError)")
        #expect(!token.standardOutput.contains("s3cret") && token.standardOutput.contains("<redacted>"))
        #expect(token.standardError.contains("its mode is now 600 (was 644)"), "\(token.standardError)")
        let mode = try FileManager.default.attributesOfItem(atPath: home.configFile)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        #expect(fileText.contains("\ntoken: s3cret-token\nprofiles:"), "\(fileText)")
        #expect(try await home.conn(["config", "get", "token"]).standardOutput == "s3cret-token\n")

        // A proxy's password is written to the file, and never echoed: text and JSON.
        for arguments in [["config", "set", "proxy", "http://u:pw-s3cret@127.0.0.1:3128"], ["config", "set", "--json", "proxy", "http://u:pw-s3cret@127.0.0.1:3128"]] {
            let proxy = try await home.conn(arguments)
            #expect(proxy.exitCode == 0 && !proxy.standardOutput.contains("pw-s3cret") && !proxy.standardError.contains("pw-s3cret")
                    && proxy.standardOutput.contains("http://***@127.0.0.1:3128"), "\(proxy.standardOutput) \(proxy.standardError)")
        }
        #expect(fileText.contains("proxy: http://u:pw-s3cret@127.0.0.1:3128"), "\(fileText)")
    }

    @Test("a symbolic link to the file stays a link; its target is edited")
    func followsLinks() async throws {
        let target = try home.write("dotfiles/conn.yaml", Self.file)
        try FileManager.default.createDirectory(atPath: home.path + "/config/conn", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: home.configFile, withDestinationPath: target)
        #expect(try await home.conn(["config", "set", "email", "ann@example.com"]).exitCode == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: home.configFile) == target)
        #expect(try String(contentsOfFile: target, encoding: .utf8).contains("email: ann@example.com"))
    }

    @Test("profiles lists the top level and each profile, the active one marked, with what each resolves to")
    func profiles() async throws {
        try home.write("config/conn/config.yaml", Self.file + "\nprofile: work\n")
        let listed = try await home.conn(["config", "profiles"])
        #expect(listed.exitCode == 0)
        #expect(listed.standardOutput == """
              default  http://127.0.0.1:8080
            * work     http://work.example:9000  me@work.example
              home     http://127.0.0.1:8080

            """, "\(listed.standardOutput)")
        let json = try await home.conn(["--profile", "home", "config", "profiles", "--json"]).json()
        #expect(json["active"] as? String == "home")
        let names = (json["profiles"] as? [[String: Any]])?.map { "\($0["name"] as? String ?? "?"):\($0["active"] as? Bool == true)" }
        #expect(names == ["default:false", "work:false", "home:true"], "\(String(describing: names))")
    }

    @Test("init writes the values and a commented reference, 0600; refuses an existing file; --force keeps FILE.bak; a broken file can be replaced")
    func initFromFlags() async throws {
        let made = try await home.conn(["config", "init", "--server", "http://127.0.0.1:8080", "--email", "ann@example.com"])
        #expect(made.exitCode == 0, "\(made.standardError)")
        #expect(fileText.contains("\nserver: http://127.0.0.1:8080\nemail: ann@example.com\n"), "\(fileText)")
        #expect(fileText.contains("# timeout: 10s"))
        let mode = try FileManager.default.attributesOfItem(atPath: home.configFile)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        let shown = try await home.conn(["config", "show", "--json"])
        #expect(try shown.json()["server"] as? String == "http://127.0.0.1:8080")

        let again = try await home.conn(["config", "init", "--server", "http://127.0.0.1:9"])
        #expect(again.exitCode == 64 && again.standardError.contains("exists"), "\(again.standardError)")
        #expect(fileText.contains("8080"))

        try home.write("config/conn/config.yaml", "server: [broken\n")
        #expect(try await home.conn(["config", "show"]).exitCode == 78)
        let forced = try await home.conn(["config", "init", "--force", "--server", "http://127.0.0.1:9"])
        #expect(forced.exitCode == 0, "\(forced.standardError)")
        #expect(try String(contentsOfFile: home.configFile + ".bak", encoding: .utf8) == "server: [broken\n")
        #expect(try await home.conn(["config", "get", "server"]).standardOutput.hasPrefix("http://127.0.0.1:9"))

        let badEmail = try await home.conn(["config", "init", "--force", "--email", "not an address"])
        #expect(badEmail.exitCode == 64)
    }

    @Test("init on a terminal asks for the server (again after a bad one) and the e-mail",
          .enabled(if: TerminalSession.available, "needs tmux"))
    func initAsks() async throws {
        let session = try home.terminal(["config", "init"])
        try await session.waitFor(15, "the server question") { $0.contains("Server URL") }
        try session.type("ftp://nope")
        try session.press("Enter")
        try await session.waitFor(15, "the question again") { $0.components(separatedBy: "Server URL").count == 3 }
        try session.type("http://127.0.0.1:8080")
        try session.press("Enter")
        try await session.waitFor(15, "the e-mail question") { $0.contains("e-mail address") }
        try session.type("ann@example.com")
        try session.press("Enter")
        let (status, screen) = try await session.finished()
        #expect(status == 0, "\(screen)")
        #expect(screen.contains("wrote \(home.configFile)"), "\(screen)")
        #expect(fileText.contains("\nserver: http://127.0.0.1:8080\nemail: ann@example.com\n"), "\(fileText)")
    }

    /// An editor that, on its Nth run, replaces the file with the Nth of `versions` (counted in
    /// $HOME/edits).
    func editor(_ versions: [String]) throws -> String {
        for (index, text) in versions.enumerated() { try home.write("versions/\(index + 1).yaml", text) }
        return try home.write("bin/edit", """
            #!/bin/sh
            n=$(( $(cat "$HOME/edits" 2>/dev/null || echo 0) + 1 ))
            echo $n > "$HOME/edits"
            stat -c %a "$1" > "$HOME/editor-mode"
            cp "$HOME/versions/$n.yaml" "$1"
            """, mode: 0o755)
    }

    @Test("edit: an invalid save is reported and reopened; the fixed one replaces the file; no leaves the file and keeps the copy",
          .enabled(if: TerminalSession.available, "needs tmux"))
    func editReopens() async throws {
        try home.write("config/conn/config.yaml", Self.file)
        let fixed = Self.file.replacingOccurrences(of: "timeout: 3s", with: "timeout: 4s")
        let edit = try editor([Self.file.replacingOccurrences(of: "timeout: 3s", with: "timeout: 3 parsecs"), fixed])
        let session = try home.terminal(["config", "edit"], env: ["EDITOR": edit, "VISUAL": ""])
        try await session.waitFor(20, "the question") { $0.contains("Edit again? [Y/n]") }
        let screen = try session.screen().replacingOccurrences(of: "\n", with: "")
        // The copy's line: the edit's text is there, not in the file.
        #expect(screen.contains("timeout '3 parsecs' (from \(home.configFile).edit-") && screen.contains(".yaml:8)"), "\(screen)")
        #expect(fileText == Self.file)
        try session.press("Enter")
        let (status, final) = try await session.finished()
        #expect(status == 0, "\(final)")
        #expect(final.contains("saved \(home.configFile)"), "\(final)")
        #expect(fileText == fixed)
        #expect(try String(contentsOfFile: home.path + "/editor-mode", encoding: .utf8).hasPrefix("600"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: home.path + "/config/conn")
        #expect(leftovers == ["config.yaml"], "\(leftovers)")

        try FileManager.default.removeItem(atPath: home.path + "/edits")
        let broken = "server: [\n"
        let refuse = try home.terminal(["config", "edit"], env: ["EDITOR": try editor([broken]), "VISUAL": ""])
        try await refuse.waitFor(20, "the question") { $0.contains("Edit again? [Y/n]") }
        try refuse.type("n")
        try refuse.press("Enter")
        let (refusedStatus, refusedScreen) = try await refuse.finished()
        #expect(refusedStatus == 78, "\(refusedScreen)")
        #expect(fileText == fixed)
        let kept = try FileManager.default.contentsOfDirectory(atPath: home.path + "/config/conn").filter { $0 != "config.yaml" }
        #expect(kept.count == 1 && refusedScreen.replacingOccurrences(of: "\n", with: "").contains(kept.first ?? "?"), "\(kept) \(refusedScreen)")
        #expect(try String(contentsOfFile: home.path + "/config/conn/" + (kept.first ?? ""), encoding: .utf8) == broken)
    }

    @Test("edit without a terminal: an invalid save leaves the file and keeps the copy (78), naming the copy's line; unchanged text writes nothing")
    func editWithoutTerminal() async throws {
        try home.write("config/conn/config.yaml", Self.file)
        let same = try await home.conn(["config", "edit"], env: ["EDITOR": "true", "VISUAL": ""])
        #expect(same.exitCode == 0 && same.standardOutput.contains("no change"), "\(same.standardError)")
        let bad = try await home.conn(["config", "edit"], env: ["EDITOR": try editor(["profiles: 3\n"]), "VISUAL": ""])
        #expect(bad.exitCode == 78)
        #expect(bad.standardError.contains("is unchanged; your edit is kept in"), "\(bad.standardError)")
        #expect(fileText == Self.file)
        // Broken YAML in a one-line edit: the copy's name and its one line, never a line past its end.
        try FileManager.default.removeItem(atPath: home.path + "/edits")
        let broken = try await home.conn(["config", "edit"], env: ["EDITOR": try editor(["server: [\n"]), "VISUAL": ""])
        let named = broken.standardError.firstMatch(of: /config\.yaml\.edit-\d+\.yaml:(\d+):(\d+): malformed YAML/)
        #expect(broken.exitCode == 78 && named.map { ($0.1, $0.2) } ?? ("", "") == ("1", "10"), "\(broken.standardError)")
        let failing = try await home.conn(["config", "edit"], env: ["EDITOR": "false", "VISUAL": ""])
        #expect(failing.exitCode == 69)
    }
}
