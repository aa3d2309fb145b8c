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
        let folded = result.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for word in ["config", "plugins", "Exit codes", "78 configuration error", "130 stopped by SIGINT"] {
            #expect(folded.contains(word), "help lacks \(word)")
        }
        let version = try await home.conn(["--version"])
        #expect(version.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").count == 3)
    }

    @Test("help lists the command's own options first, then the global ones under their own heading; -h, help X and the REPL alike")
    func helpOrder() async throws {
        let home = try TemporaryDirectory()
        for arguments in [["inbox", "list", "--help"], ["inbox", "list", "-h"], ["help", "inbox", "list"], ["--server", "http://127.0.0.1:9", "inbox", "list", "--help"]] {
            let help = try await home.conn(arguments)
            #expect(help.exitCode == 0, "\(arguments): \(help.standardError)")
            let text = help.standardOutput
            // Each option's own line (the exit codes above name --limit too).
            let positions = ["\nOPTIONS:", "\n  --limit <limit>", "\n  --since <when>", "\n  -h, --help", "\nGLOBAL OPTIONS:", "\n  --server <url>", "\n  --json ",
                             "\n  -q, --quiet"].map {
                text.range(of: $0).map { text.distance(from: text.startIndex, to: $0.lowerBound) } ?? -1
            }
            #expect(positions.allSatisfy { $0 >= 0 } && positions == positions.sorted(), "\(arguments): \(positions)\n\(text)")
            #expect(text.components(separatedBy: "\n  --server <url>").count == 2, "once: \(text)")
        }
        // Inside the REPL, help goes through the same layout.
        let repl = try await home.conn(["repl"], input: "inbox list --help\n")
        let text = repl.standardOutput
        let limit = try #require(text.range(of: "\n  --limit <limit>"), "\(text) \(repl.standardError)")
        let global = try #require(text.range(of: "GLOBAL OPTIONS:"))
        #expect(limit.lowerBound < global.lowerBound)
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

    @Test("a config file over 1 MiB (a huge comment, a huge value) is refused with 78 naming its size, by every command that reads it; /dev/zero as a device")
    func oversizedConfigIsRefused() async throws {
        let home = try TemporaryDirectory()
        let comment = "server: http://127.0.0.1:8080\n# " + String(repeating: "x", count: 3 << 20) + "\n"
        let value = "server: http://127.0.0.1:8080\nemail: " + String(repeating: "y", count: 2 << 20) + "@example.com\n"
        for (name, text) in [("comment.yaml", comment), ("value.yaml", value)] {
            let file = try home.write(name, text)
            for arguments in [["config", "show"], ["config", "set", "timeout", "5s"], ["outbox", "list"]] {
                let result = try await home.conn(["--config", file] + arguments)
                #expect(result.exitCode == 78, "\(name) \(arguments): \(result.exitCode) \(result.standardError)")
                #expect(result.standardError.contains("\(text.utf8.count) bytes") && result.standardError.contains("1 MiB"), "\(result.standardError)")
            }
            #expect(try String(contentsOfFile: file, encoding: .utf8) == text, "\(name) was changed")
        }
        // An endless device is not read at all: it is no regular file (SettingInputTests).
        let zero = try await home.conn(["--config", "/dev/zero", "config", "show"])
        #expect(zero.exitCode == 78 && zero.standardError.contains("/dev/zero is a character device"), "\(zero.standardError)")
    }

    @Test("a config file reached through a symlink is judged by the target's mode: 0600 behind a link is quiet, 0644 is warned about")
    func symlinkedConfigPermissions() async throws {
        let home = try TemporaryDirectory()
        let target = try home.write("dotfiles/conn.yaml", "server: http://127.0.0.1:8080\ntoken: t0k3n\n", mode: 0o600)
        try FileManager.default.createDirectory(atPath: home.path + "/config/conn", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: home.configFile, withDestinationPath: target)
        let quiet = try await home.conn(["config", "show"])
        #expect(quiet.exitCode == 0 && !quiet.standardError.contains("readable by others"), "\(quiet.standardError)")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: target)
        let warned = try await home.conn(["config", "show"])
        #expect(warned.standardError.contains("readable by others (mode 644)"), "\(warned.standardError)")
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
        // Sequences: 10 × 12 × 12 × 12 scalars, past the bound of 10,000 values.
        let twelve = { (name: String) in "[" + Array(repeating: "*\(name)", count: 12).joined(separator: ", ") + "]" }
        try home.write("config/conn/config.yaml", "l: &l [x, x, x, x, x, x, x, x, x, x]\nm: &m \(twelve("l"))\nn: &n \(twelve("m"))\no: \(twelve("n"))\n")
        let sequences = try await home.conn(["config", "show"])
        #expect(sequences.exitCode == 78 && sequences.standardError.contains("aliases"), "\(sequences.standardError)")
    }

    @Test func malformedConfigExits78NamingFileAndLine() async throws {
        let home = try TemporaryDirectory()
        try home.write("config/conn/config.yaml", "server: http://a\ntimeout: 5\n  bad indent: x\n")
        let result = try await home.conn(["config", "show"])
        #expect(result.exitCode == 78)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains("\(home.configFile):3:"), "stderr: \(result.standardError)")
    }

    @Test("a command is parsed alone (issue 40), and its errors are the same: a misspelled subcommand (conn's own check) and a misspelled option of a deep one, word for word; help in every spelling")
    func leafParseChangesNothingUsersSee() async throws {
        let home = try TemporaryDirectory()
        let subcommand = try await home.conn(["outbox", "lst"])
        #expect(subcommand.exitCode == 64 && subcommand.standardError == """
            conn: error: 'lst' is not a command of 'conn outbox' (did you mean 'list'?)
            conn: usage: conn outbox list|show|flush|resend|retarget|delete (see 'conn outbox --help')

            """, "\(subcommand.standardError)")
        let option = try await home.conn(["inbox", "list", "--lmit", "3"])
        #expect(option.exitCode == 64 && option.standardError == """
            conn: error: unknown option '--lmit'. Did you mean '--limit'?
            conn: usage: conn inbox list <options> (see 'conn inbox list --help')

            """, "\(option.standardError)")
        let json = try await home.conn(["--json", "inbox", "list", "--lmit", "3"])
        #expect(json.exitCode == 64 && json.standardError.contains(#""code":"usage""#) && json.standardError.contains("Did you mean '--limit'?"),
                "\(json.standardError)")
        // Help by flag, by word and before the name: the same text, the command's own options first.
        let byFlag = try await home.conn(["inbox", "list", "--help"])
        for arguments in [["help", "inbox", "list"], ["inbox", "list", "-h"]] {
            let other = try await home.conn(arguments)
            #expect(other.exitCode == 0 && other.standardOutput == byFlag.standardOutput, "\(arguments)")
        }
        // With --json, the same text inside the JSON document.
        let asJSON = try await home.conn(["--json", "inbox", "list", "--help"])
        let helpInJSON = try asJSON.json()["help"] as? String
        #expect(asJSON.exitCode == 0 && helpInJSON?.trimmingCharacters(in: .newlines) == byFlag.standardOutput.trimmingCharacters(in: .newlines))
        #expect(byFlag.standardOutput.hasPrefix("OVERVIEW: List conversations"), "\(byFlag.standardOutput)")
        // A leaf parsed alone still runs: its options before and after its name.
        let listed = try await home.conn(["--json", "outbox", "list", "--all"])
        #expect(listed.exitCode == 0 && listed.standardOutput.contains(#""messages":[]"#), "\(listed.standardOutput) \(listed.standardError)")
    }

    @Test("the names conn finds its commands by (written out, for start-up) are the names the command tree gives them")
    func builtInNamesMatchTheTree() async throws {
        let home = try TemporaryDirectory()
        let tree = try await home.conn(["--experimental-dump-help"])
        let dumped = try #require(JSONSerialization.jsonObject(with: Data(tree.standardOutput.utf8)) as? [String: Any])
        let root = try #require(dumped["command"] as? [String: Any])
        let treeNames = try #require(root["subcommands"] as? [[String: Any]]).compactMap { $0["commandName"] as? String }
        let listed = try await home.conn(["plugins", "list", "--json"])
        let plugins = try #require(JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [String: Any])
        let builtIns = try #require(plugins["plugins"] as? [[String: Any]])
            .filter { $0["kind"] as? String == "builtIn" }.compactMap { $0["name"] as? String }
        #expect(!builtIns.isEmpty && Set(builtIns) == Set(treeNames.filter { $0 != "help" }), "table \(builtIns), tree \(treeNames)")
    }

    @Test("an unknown command: 64, said once, as conn says every error, with a suggestion")
    func unknownCommandIsAUsageErrorWithASuggestion() async throws {
        let home = try TemporaryDirectory()
        var result = try await home.conn(["confg", "show"])
        #expect(result.exitCode == 64)
        #expect(result.standardError == """
            conn: error: 'confg' is not a conn command, and no conn-confg plugin was found on PATH (did you mean 'config'?)
            conn: usage: conn <subcommand> (see 'conn --help')

            """, "\(result.standardError)")
        // conn-server beside conn (as the build and the package put it) is not `conn server`.
        let pathWithServer = ConnProcess.productsDirectory + ":/usr/bin:/bin"
        result = try await home.conn(["server", "--port", "0"], env: ["PATH": pathWithServer])
        #expect(result.exitCode == 64 && result.standardError.contains("conn-server is a program of its own"), "\(result.standardError)")
        let plugins = try await home.conn(["plugins", "list", "--json"], env: ["PATH": pathWithServer])
        #expect(!plugins.standardOutput.contains("\"server\""), "\(plugins.standardOutput)")
        // A bad option: the error, the option's help, the usage; every line is conn's.
        result = try await home.conn(["inbox", "list", "--since"])
        #expect(result.exitCode == 64)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.first == "conn: error: missing value for '--since <when>'" && lines.count == 3
                && lines.allSatisfy { $0.hasPrefix("conn: ") } && lines.last == "conn: usage: conn inbox list <options> (see 'conn inbox list --help')",
                "\(result.standardError)")
        result = try await home.conn(["confg", "--json"])
        #expect(result.exitCode == 64)
        let object = try #require(JSONSerialization.jsonObject(with: Data(result.standardError.utf8)) as? [String: Any])
        #expect((object["error"] as? [String: Any])?["exitCode"] as? Int == 64)
    }

    @Test("a word that names no command is the one blamed, with or without options after it or --help, in text and in one JSON message; a suggestion where one is close")
    func mistypedSubcommandIsNamed() async throws {
        let home = try TemporaryDirectory()
        let cases: [(arguments: [String], message: String, usage: String)] = [
            (["inbox", "lst", "-v"], "'lst' is not a command of 'conn inbox' (did you mean 'list'?)", "usage: conn inbox fetch|list|thread|sources (see 'conn inbox --help')"),
            (["-q", "inbox", "lst", "--help"], "'lst' is not a command of 'conn inbox' (did you mean 'list'?)", "usage: conn inbox fetch|list|thread|sources (see 'conn inbox --help')"),
            (["config", "sett", "server", "x"], "'sett' is not a command of 'conn config' (did you mean 'set'?)",
             "usage: conn config show|get|set|init|edit|profiles|path (see 'conn config --help')"),
            (["outbox", "--bogus"], "unknown option '--bogus' for 'conn outbox', which takes a command first",
             "usage: conn outbox list|show|flush|resend|retarget|delete (see 'conn outbox --help')"),
            (["nosuch", "--help"], "'nosuch' is not a conn command, and no conn-nosuch plugin was found on PATH", "usage: conn <subcommand> (see 'conn --help')"),
            (["--server", "http://ann:pw@127.0.0.1:1", "inbox", "http://ann:pw@h"], "'http://***@h' is not a command of 'conn inbox'",
             "usage: conn inbox fetch|list|thread|sources (see 'conn inbox --help')"),
        ]
        for item in cases {
            let text = try await home.conn(item.arguments)
            #expect(text.exitCode == 64 && text.standardOutput.isEmpty, "\(item.arguments): \(text.exitCode) \(text.standardOutput.prefix(200))")
            #expect(text.standardError == "conn: error: \(item.message)\nconn: \(item.usage)\n", "\(item.arguments): \(text.standardError)")
            let json = try await home.conn(["--json"] + item.arguments)
            let object = try #require(JSONSerialization.jsonObject(with: Data(json.standardError.utf8)) as? [String: Any], "\(json.standardError)")
            let error = try #require(object["error"] as? [String: Any])
            #expect(json.exitCode == 64 && error["message"] as? String == item.message && error["hint"] as? String == item.usage, "\(object)")
        }
        // A group with a default command passes the word on: `conn agent HOST:PORT` watches it.
        let agent = try await home.conn(["agent", "statuss"])
        #expect(agent.exitCode == 78 && agent.standardError.contains("no server is configured"), "\(agent.standardError)")
        // Help still answers where the words are sound.
        let help = try await home.conn(["inbox", "--help"])
        #expect(help.exitCode == 0 && help.standardOutput.contains("conn inbox"), "\(help.standardError)")
    }

    @Test("conn --help: the commands first, the environment in `conn help environment` (wrapped with its indent) and man conn; help as JSON with --json for conn, a group and the environment; schema-checked")
    func rootHelpAndHelpAsJSON() async throws {
        let home = try TemporaryDirectory()
        for arguments in [["--help"], [], ["help"], ["-q", "-h"]] {
            let help = try await home.conn(arguments)
            #expect(help.exitCode == 0, "\(arguments): \(help.standardError)")
            let text = help.standardOutput
            let order = ["OVERVIEW:", "USAGE: conn", "SUBCOMMANDS:", "  probe ", "  plugins ", "Global options (", "Exit codes:", "Examples:",
                         "Environment and files: `conn help environment`, or `man conn`.", "OPTIONS:"].map {
                text.range(of: $0).map { text.distance(from: text.startIndex, to: $0.lowerBound) } ?? -1
            }
            #expect(order.allSatisfy { $0 >= 0 } && order == order.sorted(), "\(arguments): \(order)\n\(text)")
            #expect(!text.contains("CONN_SERVER") && !text.contains("GLOBAL OPTIONS:"), "\(arguments): \(text)")
            #expect(text.split(separator: "\n").count < 70, "\(arguments): \(text.split(separator: "\n").count) lines")
        }
        let environment = try await home.conn(["help", "environment"], env: ["COLUMNS": "60"])
        #expect(environment.exitCode == 0 && environment.standardOutput.hasPrefix("ENVIRONMENT:\n  CONN_SERVER\n      the back end's base URL"))
        let lines = environment.standardOutput.split(separator: "\n")
        #expect(lines.contains("FILES:") && lines.contains("  CONN_PROXY_CA_CERT"), "\(environment.standardOutput)")
        // Every line a heading, a name (two spaces) or a description (six), none past 60 columns.
        #expect(lines.allSatisfy { $0.hasSuffix(":") || ($0.hasPrefix("  ") && !$0.hasPrefix("   ")) || $0.hasPrefix("      ") }, "\(environment.standardOutput)")
        #expect(lines.allSatisfy { $0.count <= 60 }, "\(environment.standardOutput)")
        for (arguments, command, subcommand) in [(["help", "--json"], "conn", "inbox"), (["inbox", "--json"], "conn inbox", "fetch"),
                                                 (["--json", "help", "config"], "conn config", "set"), (["help", "environment", "--json"], "conn help environment", nil)] {
            let json = try await home.conn(arguments)
            #expect(json.exitCode == 0 && json.standardError.isEmpty, "\(arguments): \(json.exitCode) \(json.standardError)")
            let object = try json.json()
            #expect(object["command"] as? String == command, "\(arguments): \(object)")
            let names = (object["subcommands"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            #expect(subcommand.map { names.contains($0) } ?? names.isEmpty, "\(arguments): \(names)")
            let problems = try await JSONSchemaCheck.violations(of: json.standardOutput, schema: "help")
            #expect(problems.isEmpty, "\(arguments): \(problems)")
        }
        let variables = try await home.conn(["help", "environment", "--json"])
        let entries = try #require(try variables.json()["environment"] as? [[String: Any]])
        #expect(entries.contains { $0["name"] as? String == "CONN_SERVER" })
        // man conn keeps ENVIRONMENT and FILES.
        let page = try String(contentsOf: JSONSchemaCheck.repositoryRoot.appendingPathComponent("man/conn.1"), encoding: .utf8)
        #expect(page.contains(".Sh ENVIRONMENT") && page.contains("CONN_SERVER") && page.contains(".Sh FILES"))
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
        #expect(result.standardError.contains("conn: error: the value 'soon' is invalid for '--timeout <duration>'"), "\(result.standardError)")
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
        // Writable by the owner only whatever the umask: plugins here may get the token.
        for directory in [home.path, home.path + "/bin"] {
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory)
        }
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

    @Test("every CONN_* value a plugin gets is conn's resolved one: profile, format, colour, timeout, config file, verbosity, insecure, CA file, server and each resource, e-mail, the conn executable")
    func pluginEnvironmentValues() async throws {
        try home.write("bin/conn-env", "#!/bin/sh\nenv | grep '^CONN_' | sort\n", mode: 0o755)
        let ca = home.path + "/ca.pem"
        try FileManager.default.copyItem(atPath: "/etc/ssl/certs/ca-certificates.crt", toPath: ca)  // a real PEM file: conn reads it
        let config = try home.write("config/conn/config.yaml", """
            profiles:
              work:
                server: http://127.0.0.1:8123
                email: ann@example.com
                timeout: 7s
                caCert: \(ca)
            """)
        let result = try await conn(["--profile", "work", "-v", "--insecure", "--json", "--color", "never", "env"])
        #expect(result.exitCode == 0, "\(result.standardError)")
        let values = Dictionary(result.standardOutput.split(separator: "\n").compactMap { line -> (String, String)? in
            guard let equals = line.firstIndex(of: "=") else { return nil }
            return (String(line[..<equals]), String(line[line.index(after: equals)...]))
        }, uniquingKeysWith: { $1 })
        #expect(values["CONN_PROFILE"] == "work")
        #expect(values["CONN_FORMAT"] == "json")
        #expect(values["CONN_COLOR"] == "never", "\(values)")
        #expect(values["CONN_TIMEOUT"] == "7.0")
        #expect(values["CONN_CONFIG"] == config)
        #expect(values["CONN_VERBOSITY"] == "verbose", "\(values)")
        #expect(values["CONN_INSECURE"] == "true")
        #expect(values["CONN_CA_CERT"] == ca)
        #expect(values["CONN_SERVER"] == "http://127.0.0.1:8123")
        #expect(values["CONN_RESOURCES_HEALTH"] == "http://127.0.0.1:8123/health" && values["CONN_RESOURCES_MESSAGES"] == "http://127.0.0.1:8123/messages"
                && values["CONN_RESOURCES_WS"] == "ws://127.0.0.1:8123/ws", "\(values)")
        #expect(values["CONN_EMAIL"] == "ann@example.com")
        #expect(values["CONN_EXECUTABLE"].map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path }
                == URL(fileURLWithPath: ConnProcess.connPath).resolvingSymlinksInPath().path, "\(values)")
        #expect(values["CONN_TOKEN"] == nil)
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

    @Test("a plugin named in pluginsWithToken that others could replace (world-writable PATH directory, file, or plugins directory, a symlink into one) runs without the token, with one warning naming the path")
    func tokenOnlyToPluginsNobodyElseCanReplace() async throws {
        try home.write("config/conn/config.yaml", "server: http://127.0.0.1:8080\ntoken: t0k3n\npluginsWithToken: hello\n")
        let fileManager = FileManager.default
        func run(_ pathEntry: String) async throws -> ProcessOutcome {
            try await conn(["hello"], env: ["PATH": pathEntry + ":/usr/bin:/bin"])
        }
        func expectWithheld(_ outcome: ProcessOutcome, naming path: String, _ what: String) {
            #expect(outcome.exitCode == 0, "\(what): \(outcome.standardError)")
            #expect(outcome.standardOutput.contains("token:\n"), "\(what) got the token: \(outcome.standardOutput)")
            let warnings = outcome.standardError.split(separator: "\n").filter { $0.contains("runs without the token") }
            #expect(warnings.count == 1 && warnings[0].contains(path), "\(what): \(outcome.standardError)")
        }

        // A world-writable PATH directory, not sticky.
        let open = home.path + "/open"
        try home.write("open/conn-hello", Self.helloScript, mode: 0o755)
        try fileManager.setAttributes([.posixPermissions: 0o777], ofItemAtPath: open)
        expectWithheld(try await run(open), naming: open, "a plugin in a 0777 directory")
        // The same directory, sticky (as /tmp): others cannot replace the file, so the token goes.
        try fileManager.setAttributes([.posixPermissions: 0o1777], ofItemAtPath: open)
        let sticky = try await run(open)
        #expect(sticky.standardOutput.contains("token:t0k3n\n") && !sticky.standardError.contains("without the token"), "\(sticky.standardError)")

        // A world-writable file in a safe directory.
        let file = try home.write("safe/conn-hello", Self.helloScript, mode: 0o777)
        try fileManager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: home.path + "/safe")
        expectWithheld(try await run(home.path + "/safe"), naming: file, "a 0777 plugin file")

        // A file another user owns (as root, the one case this machine can make): they could replace it.
        try fileManager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file)
        if geteuid() == 0 {
            #expect(chown(file, 65534, 65534) == 0)
            expectWithheld(try await run(home.path + "/safe"), naming: file, "a plugin owned by nobody")
            #expect(chown(file, 0, 0) == 0)
        }

        // A symlink in a safe directory to a plugin in a world-writable one.
        try fileManager.setAttributes([.posixPermissions: 0o777], ofItemAtPath: open)
        try fileManager.createDirectory(atPath: home.path + "/linked", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        try fileManager.createSymbolicLink(atPath: home.path + "/linked/conn-hello", withDestinationPath: open + "/conn-hello")
        expectWithheld(try await run(home.path + "/linked"), naming: open, "a symlink into a 0777 directory")

        // conn's own plugins directory, made 0777.
        let plugins = home.path + "/data/conn/plugins"
        try home.write("data/conn/plugins/conn-hello", Self.helloScript, mode: 0o755)
        for directory in [home.path + "/data", home.path + "/data/conn"] {
            try fileManager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory)
        }
        try fileManager.setAttributes([.posixPermissions: 0o777], ofItemAtPath: plugins)
        expectWithheld(try await conn(["hello"], env: ["PATH": "/usr/bin:/bin"]), naming: plugins, "a 0777 plugins directory")
        try fileManager.setAttributes([.posixPermissions: 0o700], ofItemAtPath: plugins)
        let safe = try await conn(["hello"], env: ["PATH": "/usr/bin:/bin"])
        #expect(safe.standardOutput.contains("token:t0k3n\n") && !safe.standardError.contains("without the token"), "\(safe.standardError)")
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
