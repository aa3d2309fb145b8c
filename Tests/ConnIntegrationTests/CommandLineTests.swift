import ConnTestSupport
import Foundation
import Testing

/// The `conn` binary as a user and a script see it: processes, PATH, files, exit codes.
@Suite("conn on the command line")
struct CommandLineTests {
    @Test func helpShowsTheCommandTreeAndExitCodes() async throws {
        let home = try TemporaryDirectory()
        let result = try await home.conn(["--help"])
        #expect(result.exitCode == 0)
        for word in ["config", "plugins", "Exit codes", "78 configuration error"] {
            #expect(result.standardOutput.contains(word), "help lacks \(word)")
        }
        let version = try await home.conn(["--version"])
        #expect(version.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").count == 3)
    }

    @Test func configShowJSONIsValidJSONOnStdout() async throws {
        let home = try TemporaryDirectory()
        let result = try await home.conn(["config", "show", "--format", "json"], env: ["CONN_SERVER": "http://127.0.0.1:8080"])
        #expect(result.exitCode == 0)
        #expect(result.standardError.isEmpty)
        let json = try #require(JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(json["server"] as? String == "http://127.0.0.1:8080")
        #expect((json["sources"] as? [String: [String: String]])?["server"]?["detail"] == "environment variable CONN_SERVER")
    }

    @Test("a config of aliases nested in aliases (billion laughs, mappings or sequences) is refused with 78 at once, naming the file")
    func aliasBombConfigIsRefused() async throws {
        let home = try TemporaryDirectory()
        var text = "a: &a {x: 1, y: 1}\n"
        var previous = "a"
        for level in ["b", "c", "d", "e", "f", "g", "h"] {
            text += "\(level): &\(level) {" + (1...9).map { "\(level)\($0): *\(previous)" }.joined(separator: ", ") + "}\n"
            previous = level
        }
        try home.write("config/conn/config.yaml", text)
        let clock = ContinuousClock()
        let start = clock.now
        let result = try await home.conn(["config", "show"])
        #expect(result.exitCode == 78, "\(result.standardError)")
        #expect(result.standardError.contains(home.configFile) && result.standardError.contains("aliases"), "\(result.standardError)")
        // Without the bound it ran for minutes; the bound is a count, not a time, so any finish proves it.
        #expect(start.duration(to: clock.now) < .seconds(60))
        try home.write("config/conn/config.yaml", "l: &l [x, x, x, x, x, x, x, x, x, x]\nm: &m [*l, *l, *l, *l, *l, *l, *l, *l, *l, *l]\nn: [*m, *m, *m, *m, *m, *m, *m, *m, *m, *m, *m, *m]\n")
        #expect(try await home.conn(["config", "show"]).exitCode == 78)
    }

    @Test func malformedConfigExits78NamingFileAndLine() async throws {
        let home = try TemporaryDirectory()
        try home.write("config/conn/config.yaml", "server: http://a\ntimeout: 5\n  bad indent: x\n")
        let result = try await home.conn(["config", "show"])
        #expect(result.exitCode == 78)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains("\(home.configFile):3:"), "stderr: \(result.standardError)")
    }

    @Test func unknownCommandIsAUsageErrorWithASuggestion() async throws {
        let home = try TemporaryDirectory()
        var result = try await home.conn(["confg", "show"])
        #expect(result.exitCode == 64)
        #expect(result.standardError.contains("Did you mean 'config'?"))
        result = try await home.conn(["confg", "--json"])
        #expect(result.exitCode == 64)
        let object = try #require(JSONSerialization.jsonObject(with: Data(result.standardError.utf8)) as? [String: Any])
        #expect((object["error"] as? [String: Any])?["exitCode"] as? Int == 64)
    }

    /// As git and kubectl users type them: global options before the command's name work as
    /// after it, for groups and their subcommands; a command's own options still go after it.
    @Test("global options before the command name: --json, --server, --timeout, -q")
    func leadingGlobalOptions() async throws {
        let home = try TemporaryDirectory()
        let shown = try await home.conn(["--json", "--server", "http://127.0.0.1:7", "--timeout", "2s", "config", "show"])
        #expect(shown.exitCode == 0, "\(shown.standardError)")
        let json = try shown.json()
        #expect(json["server"] as? String == "http://127.0.0.1:7" && json["timeoutSeconds"] as? Double == 2)
        let probe = try await home.conn(["--json", "probe", "127.0.0.1:1"])
        #expect(probe.exitCode == 69 && (try? probe.json()) != nil, "\(probe.standardOutput) \(probe.standardError)")
        let quiet = try await home.conn(["-q", "--server=http://127.0.0.1:7", "outbox", "flush"])
        #expect(quiet.exitCode == 0 && quiet.standardError.isEmpty, "\(quiet.standardError)")
        // Between the words of a command's name too; a group given them alone prints its help.
        let between = try await home.conn(["inbox", "--json", "list"])
        let betweenError = try between.jsonError()
        #expect(between.exitCode == 69 && betweenError["code"] as? String == "emptyCache", "\(between.standardError)")
        let group = try await home.conn(["inbox", "--json"])
        #expect(group.exitCode == 0 && group.standardOutput.contains("SUBCOMMANDS:"), "\(group.standardOutput) \(group.standardError)")
        // Help and unknown options before the name are ArgumentParser's, as before.
        #expect(try await home.conn(["--help"]).standardOutput.contains("USAGE: conn"))
        let unknown = try await home.conn(["--bogus", "probe"])
        #expect(unknown.exitCode == 64 && unknown.standardError.contains("--bogus"), "\(unknown.standardError)")
    }

    @Test func badOptionValueIsAUsageError() async throws {
        let home = try TemporaryDirectory()
        let result = try await home.conn(["config", "show", "--timeout", "soon"])
        #expect(result.exitCode == 64)
        // ArgumentParser's message for a value its type refuses, with the option's help: the format.
        #expect(result.standardError.contains("The value 'soon' is invalid for '--timeout <duration>'"), "\(result.standardError)")
        #expect(result.standardError.contains("500ms, 5s, 2m; more than 0, at most 3650d"), "\(result.standardError)")
    }
}

@Suite("External plugins")
struct PluginTests {
    /// A real plugin: prints its arguments and the conn variables it got, exits with $EXIT_WITH.
    static let helloScript = """
        #!/bin/sh
        echo "args:$*"
        echo "server:$CONN_SERVER"
        echo "format:$CONN_FORMAT"
        echo "profile:$CONN_PROFILE"
        echo "timeout:$CONN_TIMEOUT"
        echo "token:$CONN_TOKEN"
        echo "inbox:$CONN_RESOURCES_INBOX"
        echo "to stderr" >&2
        exit ${EXIT_WITH:-0}
        """

    let home: TemporaryDirectory
    let env: [String: String]

    init() throws {
        home = try TemporaryDirectory()
        try home.write("bin/conn-hello", Self.helloScript, mode: 0o755)
        try home.write("bin/conn-hello-world", "#!/bin/sh\necho \"world:$*\"\n", mode: 0o755)
        try home.write("bin/conn-config", "#!/bin/sh\necho hijacked\n", mode: 0o755)
        env = ["PATH": home.path + "/bin:/usr/bin:/bin"]
    }

    func conn(_ arguments: [String], env extra: [String: String] = [:]) async throws -> ProcessOutcome {
        try await ConnProcess.run(ConnProcess.connPath, arguments, environment: home.environment.merging(env) { $1 }.merging(extra) { $1 })
    }

    @Test func runsWithArgumentsEnvironmentAndExitCode() async throws {
        try home.write("config/conn/config.yaml", "server: http://127.0.0.1:8080\ntoken: t0k3n\npluginsWithToken: hello, other\n")
        let result = try await conn(["hello", "a b", "--flag"], env: ["EXIT_WITH": "42"])
        #expect(result.exitCode == 42)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.contains("args:a b --flag"))
        #expect(lines.contains("server:http://127.0.0.1:8080"))
        #expect(lines.contains("format:text"))
        #expect(lines.contains("profile:default"))
        #expect(lines.contains("timeout:10.0"))
        #expect(lines.contains("token:t0k3n"))  // only in CONN_TOKEN
        #expect(lines.contains("inbox:http://127.0.0.1:8080/inbox"))
        #expect(result.standardError == "to stderr\n")
    }

    @Test("the token reaches only plugins named in pluginsWithToken; others run without it, even when the caller's environment had one")
    func tokenOnlyToNamedPlugins() async throws {
        try home.write("config/conn/config.yaml", "server: http://127.0.0.1:8080\ntoken: t0k3n\n")
        let untrusted = try await conn(["hello"], env: ["CONN_TOKEN": "from-env"])
        #expect(untrusted.exitCode == 0, "\(untrusted.standardError)")
        #expect(untrusted.standardOutput.contains("token:\n"), "\(untrusted.standardOutput)")
        let trusted = try await conn(["hello"], env: ["CONN_PLUGINS_WITH_TOKEN": "hello"])
        #expect(trusted.standardOutput.contains("token:t0k3n\n"), "\(trusted.standardOutput)")
    }

    @Test("only absolute PATH entries are searched: a plugin in a relative entry (bin, .) never runs")
    func relativePathEntriesIgnored() async throws {
        try home.write("work/bin/conn-planted", "#!/bin/sh\necho planted\n", mode: 0o755)
        try home.write("work/conn-dot", "#!/bin/sh\necho dot\n", mode: 0o755)
        for (path, name) in [("bin:/usr/bin:/bin", "planted"), (".:/usr/bin:/bin", "dot"), (":/usr/bin:/bin", "dot")] {
            let result = try await ConnProcess.run(
                "/bin/sh", ["-c", "cd \"$0\" && exec \"$1\" \"$2\"", home.path + "/work", ConnProcess.connPath, name],
                environment: home.environment.merging(["PATH": path]) { $1 })
            #expect(result.exitCode == 64, "PATH=\(path) conn \(name): \(result.exitCode) \(result.standardOutput)")
            #expect(!result.standardOutput.contains(name == "planted" ? "planted" : "dot"))
        }
    }

    @Test func globalOptionsBeforeTheNameConfigureThePlugin() async throws {
        let result = try await conn(["--server", "http://10.9.8.7:1", "--json", "hello"])
        #expect(result.exitCode == 0)
        #expect(result.standardOutput.contains("server:http://10.9.8.7:1\n"))
        #expect(result.standardOutput.contains("format:json\n"))
        #expect(result.standardOutput.contains("args:\n"))
    }

    @Test func longestMatchAndBuiltInsWin() async throws {
        var result = try await conn(["hello", "world", "x"])
        #expect(result.standardOutput == "world:x\n")
        result = try await conn(["config", "path"])
        #expect(result.exitCode == 0)
        #expect(!result.standardOutput.contains("hijacked"))
    }

    @Test func helpForThePluginGoesToThePlugin() async throws {
        let result = try await conn(["hello", "--help"])
        #expect(result.standardOutput.contains("args:--help"))
    }

    @Test func pluginsListShowsBuiltInsAndExternalsWithPaths() async throws {
        let result = try await conn(["plugins", "list", "--json"])
        #expect(result.exitCode == 0)
        let object = try #require(JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let plugins = try #require(object["plugins"] as? [[String: Any]])
        let byName = Dictionary(plugins.map { ($0["name"] as! String, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(byName["config"]?["kind"] as? String == "builtIn")
        #expect(byName["hello"]?["path"] as? String == home.path + "/bin/conn-hello")
        #expect(byName["hello"]?["active"] as? Bool == true)
        let hidden = plugins.first { $0["name"] as? String == "config" && $0["kind"] as? String == "external" }
        #expect(hidden?["active"] as? Bool == false)
    }

    @Test func brokenConfigStopsThePluginWith78() async throws {
        try home.write("config/conn/config.yaml", "server: [\n")
        let result = try await conn(["hello"])
        #expect(result.exitCode == 78)
        #expect(!result.standardOutput.contains("args:"))
    }
}
