import ConnCore
import ConnTestSupport
import Foundation
import Testing

@Suite("Configuration: precedence, profiles, errors")
struct ConfigurationLoaderTests {
    static let fileWithProfiles = """
        # conn configuration
        server: http://file-top.example:8080
        timeout: 7
        profile: staging
        profiles:
          staging:
            server: https://staging.example/api
            email: dev@example.com
            resources:
              inbox: http://hook.example/juan/inbox
          work:
            server: http://work.example
            timeout: 2.5
        """

    func load(_ home: TemporaryDirectory, env: [String: String] = [:], _ overrides: ConfigurationOverrides = .init()) throws -> ConnConfiguration {
        try ConfigurationLoader(environment: home.environment.merging(env) { $1 }).load(overrides)
    }

    /// A good and a bad text for each setting of the table: a setting added without a line here
    /// fails this test, so every one is read from the file and from CONN_<KEY>, and refused
    /// with its key and source named.
    static let samples: [String: (good: String, bad: String?)] = [
        "format": ("json", "xml"), "color": ("never", "sometimes"), "timeout": ("2.5", "soon"),
        "outboxExpiry": ("7d", "-1s"), "outboxKeepSent": ("30d", "forever"), "insecure": ("yes", "maybe"), "utc": ("true", "gmt"), "email": ("me@example.com", nil),
        "token": ("tok", nil), "pluginsWithToken": ("deploy, sync", nil),
        "chronySocket": ("/run/chrony/conn.sock", nil), "chronyMaxUncertainty": ("20", "0"), "cacheLimit": ("1GiB", "12"), "sync": ("https://api.example.com/a.json, http://127.0.0.1:9/b", "ftp://x/y"),
        "caCert": ("/etc/ssl/certs/ca-certificates.crt", "/nonexistent/ca.pem"),
        "internetCheck": ("http://check.example/generate_204=204, http://192.0.2.1/ok=200:ok", "ftp://check.example/"),
        "proxy": ("http://proxy.example:3128", "gopher://proxy.example"), "noProxy": (".internal, 10.0.0.0/8", nil),
        "proxyInsecure": ("true", "sometimes"),
        // Debian's bundle of the system's CAs (ca-certificates): a PEM file on every machine with curl.
        "proxyCaCert": ("/etc/ssl/certs/ca-certificates.crt", "/nonexistent/proxy-ca.pem"),
    ]

    @Test("every setting of the table: known in the file, read from the file and its environment variable, a bad value named")
    func everySetting() throws {
        #expect(Set(ConfigSetting.all.map(\.key)) == Set(Self.samples.keys))
        #expect(Set(ConfigKeys.settings) == Set(["server"] + ConfigSetting.all.map(\.key)))
        for setting in ConfigSetting.all {
            let (good, bad) = try #require(Self.samples[setting.key], "no sample for \(setting.key)")
            let home = try TemporaryDirectory()
            let fromEnvironment = try load(home, env: [setting.environmentVariable: good])
            #expect(fromEnvironment.sources[setting.key] == .environment(setting.environmentVariable), "\(setting.key)")
            try home.write("config/conn/config.yaml", "\(setting.key): '\(good)'\n")
            let fromFile = try load(home)
            #expect(fromFile.sources[setting.key] == .file(path: home.configFile, line: 1), "\(setting.key)")
            #expect(fromFile.warnings.isEmpty, "\(setting.key): \(fromFile.warnings)")
            if let bad {
                let error = try #require(#expect(throws: ConnError.self) { try load(home, env: [setting.environmentVariable: bad]) })
                #expect(error.exitStatus == .configuration && error.message.hasPrefix("\(setting.key) '\(bad)' (from environment variable \(setting.environmentVariable))"),
                        "\(error.message)")
            }
        }
    }

    @Test func defaultsWithoutAnyFile() throws {
        let home = try TemporaryDirectory()
        let configuration = try load(home)
        #expect(configuration.profile == "default")
        #expect(configuration.backEnd == nil)
        #expect(configuration.format == .text)
        #expect(configuration.color == .auto)
        #expect(configuration.timeout == .seconds(10))
        #expect(configuration.configFile == home.configFile)
        #expect(!configuration.configFileExists)
        #expect(configuration.sources["server"] == .defaultValue)
    }

    @Test("flags beat the environment, which beats the profile, which beats the file's top level")
    func precedence() throws {
        let home = try TemporaryDirectory()
        try home.write("config/conn/config.yaml", Self.fileWithProfiles)

        // The file's `profile: staging` selects staging; its server beats the top-level one.
        var configuration = try load(home)
        #expect(configuration.profile == "staging")
        #expect(configuration.backEnd?.baseURL.absoluteString == "https://staging.example/api")
        #expect(configuration.sources["server"] == .file(path: home.configFile, line: 7))
        // A key the profile lacks falls back to the top level.
        #expect(configuration.timeout == .seconds(7))
        #expect(configuration.sources["timeout"] == .file(path: home.configFile, line: 3))

        configuration = try load(home, env: ["CONN_SERVER": "http://env.example"])
        #expect(configuration.backEnd?.baseURL.absoluteString == "http://env.example")
        #expect(configuration.sources["server"] == .environment("CONN_SERVER"))

        configuration = try load(home, env: ["CONN_SERVER": "http://env.example"], .init(server: "http://flag.example"))
        #expect(configuration.backEnd?.baseURL.absoluteString == "http://flag.example")
        #expect(configuration.sources["server"] == .flag("--server"))
    }

    @Test("profile chosen by flag, then CONN_PROFILE, then the file")
    func profileSelection() throws {
        let home = try TemporaryDirectory()
        try home.write("config/conn/config.yaml", Self.fileWithProfiles)
        var configuration = try load(home, env: ["CONN_PROFILE": "work"])
        #expect(configuration.profile == "work")
        #expect(configuration.timeout == .milliseconds(2500))
        #expect(configuration.backEnd?.baseURL.absoluteString == "http://work.example")

        configuration = try load(home, env: ["CONN_PROFILE": "work"], .init(profile: "staging"))
        #expect(configuration.profile == "staging")
        #expect(configuration.sources["profile"] == .flag("--profile"))
    }

    @Test func emptyEnvironmentVariableCountsAsUnset() throws {
        let home = try TemporaryDirectory()
        try home.write("config/conn/config.yaml", Self.fileWithProfiles)
        let configuration = try load(home, env: ["CONN_SERVER": "", "CONN_PROFILE": ""])
        #expect(configuration.backEnd?.baseURL.absoluteString == "https://staging.example/api")
    }

    @Test func resourcesResolveAgainstTheBaseOrStandAlone() throws {
        let home = try TemporaryDirectory()
        try home.write("config/conn/config.yaml", Self.fileWithProfiles)
        let backEnd = try #require(try load(home).backEnd)
        #expect(backEnd.url(for: .health).absoluteString == "https://staging.example/api/health")
        #expect(backEnd.url(for: .inbox).absoluteString == "http://hook.example/juan/inbox")
        #expect(backEnd.url(for: .ws).absoluteString == "wss://staging.example/api/ws")
        let fromEnvironment = try load(home, env: ["CONN_RESOURCES_TIME": "/v2/clock"]).backEnd
        #expect(fromEnvironment?.url(for: .time).absoluteString == "https://staging.example/api/v2/clock")
    }

    @Test func undefinedProfileIsAConfigurationError() throws {
        let home = try TemporaryDirectory()
        try home.write("config/conn/config.yaml", Self.fileWithProfiles)
        let error = try #require(throws: ConnError.self) { try load(home, .init(profile: "prod")) }
        #expect(error.exitStatus == .configuration)
        #expect(error.message.contains("profile 'prod' (from flag --profile) is not defined in \(home.configFile)"))
        #expect(error.hint == "Defined profiles: staging, work.")
    }

    @Test("malformed YAML names the file, line and column")
    func malformedYAML() throws {
        let home = try TemporaryDirectory()
        try home.write("config/conn/config.yaml", "server: http://a\nprofiles:\n  work: [unclosed\n")
        let error = try #require(throws: ConnError.self) { try load(home) }
        #expect(error.exitStatus == .configuration)
        #expect(error.code == .configInvalid)
        // The parser finds it at the end: the last line (3), not a fourth the file does not have.
        #expect(error.message.hasPrefix("\(home.configFile):3:"), "got: \(error.message)")
        #expect(error.message.contains("malformed YAML") && error.message.hasSuffix("(at the end of the file)"))
    }

    @Test("a bad value names the file, the line and the key")
    func badValueNamesLineAndKey() throws {
        let home = try TemporaryDirectory()
        try home.write("config/conn/config.yaml", "server: http://a\n\nprofiles:\n  work:\n    timeout: soon\n")
        let error = try #require(throws: ConnError.self) { try load(home, .init(profile: "work")) }
        #expect(error.message == "timeout 'soon' (from \(home.configFile):5) is not a positive duration (at most 3650d)")
    }

    @Test func wrongShapeNamesLineAndKey() throws {
        let home = try TemporaryDirectory()
        try home.write("config/conn/config.yaml", "format: json\nserver:\n  url: http://a\n")
        let error = try #require(throws: ConnError.self) { try load(home) }
        #expect(error.message == "\(home.configFile):3: key 'server' must be a single value")
    }

    @Test func keyWithoutValue() throws {
        let home = try TemporaryDirectory()
        try home.write("config/conn/config.yaml", "server:\n")
        let error = try #require(throws: ConnError.self) { try load(home) }
        #expect(error.message.contains(":1: key 'server' has no value"))
    }

    @Test("YAML read without regular expressions keeps YAML's meaning: plain ~, null, Null, NULL are no value; quoted they are text; numbers, booleans and dates are text conn's schema reads")
    func scalarsAsConnReadsThem() throws {
        for null in ["~", "null", "Null", "NULL", "!!null \"\""] {
            let home = try TemporaryDirectory()
            try home.write("config/conn/config.yaml", "server: \(null)\n")
            let error = try #require(throws: ConnError.self, "\(null)") { try load(home) }
            #expect(error.message.contains(":1: key 'server' has no value"), "\(null): \(error.message)")
        }
        let home = try TemporaryDirectory()
        try home.write("config/conn/config.yaml", "server: http://a.example\ntimeout: 5\nemail: \"null@example.com\"\ninsecure: true\nprofile: \"null\"\nprofiles:\n  \"null\":\n    timeout: 2.5\n")
        let configuration = try load(home)
        #expect(configuration.timeout == .milliseconds(2_500) && configuration.insecure && configuration.email == "null@example.com")
        #expect(configuration.profile == "null")
    }

    @Test func badValuesFromEachSourceNameTheirSource() throws {
        let home = try TemporaryDirectory()
        var error = try #require(throws: ConnError.self) { try load(home, env: ["CONN_SERVER": "localhost:8080"]) }
        #expect(error.message == "server 'localhost:8080' (from environment variable CONN_SERVER) is not an http or https URL with a host")
        error = try #require(throws: ConnError.self) { try load(home, env: ["CONN_FORMAT": "yaml"]) }
        #expect(error.message == "format 'yaml' (from environment variable CONN_FORMAT) is not one of: text, json, prometheus")
        error = try #require(throws: ConnError.self) { try load(home, .init(color: "sometimes")) }
        #expect(error.message == "color 'sometimes' (from flag --color) is not one of: auto, always, never")
    }

    @Test func unknownKeysAreWarnedAboutWithASuggestion() throws {
        let home = try TemporaryDirectory()
        try home.write("config/conn/config.yaml", "sever: http://a\nprofiles:\n  work:\n    resources:\n      inbx: /x\n")
        let configuration = try load(home)
        #expect(configuration.warnings == [
            "\(home.configFile):1: unknown key 'sever' (did you mean 'server'?); it is ignored",
            "\(home.configFile):5: unknown resource 'inbx' (did you mean 'inbox'?); known: health, inbox, messages, time, ws, session",
        ])
    }

    @Test func tokenInAReadableFileIsWarnedAbout() throws {
        let home = try TemporaryDirectory()
        try home.write("config/conn/config.yaml", "token: s3cret\n", mode: 0o644)
        let configuration = try load(home)
        #expect(configuration.token == "s3cret")
        #expect(configuration.redactedToken == "<redacted>")
        #expect(configuration.warnings.count == 1)
        #expect(configuration.warnings[0].contains("holds a token and is readable by others (mode 644)"))

        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: home.configFile)
        #expect(try load(home).warnings.isEmpty)
    }

    @Test func explicitConfigFileMustExist() throws {
        let home = try TemporaryDirectory()
        var error = try #require(throws: ConnError.self) { try load(home, .init(configFile: home.path + "/nope.yaml")) }
        #expect(error.message == "config file \(home.path)/nope.yaml (from flag --config) does not exist")
        error = try #require(throws: ConnError.self) { try load(home, env: ["CONN_CONFIG": home.path + "/nope.yaml"]) }
        #expect(error.message.contains("(from environment variable CONN_CONFIG)"))
    }

    @Test func configFlagReadsAnotherFile() throws {
        let home = try TemporaryDirectory()
        let other = try home.write("elsewhere.yaml", "server: http://other.example\nformat: json\n")
        let configuration = try load(home, .init(configFile: other))
        #expect(configuration.backEnd?.baseURL.absoluteString == "http://other.example")
        #expect(configuration.format == .json)
        #expect(configuration.configFile == other)
    }

    @Test(arguments: [("10", 10_000), ("2.5", 2_500), ("500ms", 500), ("5s", 5_000), ("2m", 120_000), (" 1h ", 3_600_000)])
    func durations(_ text: String, _ milliseconds: Int64) {
        #expect(DurationParser.parse(text) == .milliseconds(milliseconds))
    }

    @Test(arguments: ["", "soon", "-1", "5 parsecs", "inf", "nan"])
    func badDurations(_ text: String) {
        #expect(DurationParser.parse(text) == nil)
    }

    @Test func xdgPathsFollowTheEnvironment() {
        let paths = ConnPaths(environment: ["HOME": "/h", "XDG_DATA_HOME": "/d", "XDG_CONFIG_HOME": "relative/ignored"])
        #expect(paths.dataDirectory == "/d/conn")
        #expect(paths.configDirectory == "/h/.config/conn")
        #expect(paths.stateDirectory == "/h/.local/state/conn")
        #expect(paths.cacheDirectory == "/h/.cache/conn")
        #expect(paths.databaseFile == "/d/conn/conn.sqlite")
    }

    @Test func suggestionsAreCloseMatchesOnly() {
        #expect(Suggestions.closest(to: "confg", among: ["config", "plugins"]) == "config")
        #expect(Suggestions.closest(to: "zzz", among: ["config", "plugins"]) == nil)
    }
}
