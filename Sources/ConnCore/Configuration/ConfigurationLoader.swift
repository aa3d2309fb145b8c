import Configuration
import Foundation

/// Resolves conn's configuration from its four sources, highest first:
/// command-line flags, `CONN_*` environment variables, the config file (the selected profile's
/// section, then the top level), and built-in defaults.
///
/// swift-configuration reads the values (its environment and YAML providers); this type decides the
/// order, validates each value and remembers where it came from, so a bad value is reported with
/// its source: the flag, the variable, or the file and line.
public struct ConfigurationLoader: Sendable {
    public var environment: [String: String]
    /// The config file's text to use instead of reading the file: how `conn config set` and
    /// `config edit` check a change before it is written.
    public var candidateText: String?

    public init(environment: [String: String], candidateText: String? = nil) {
        self.environment = environment
        self.candidateText = candidateText
    }

    public func load(_ overrides: ConfigurationOverrides = .init()) throws -> ConnConfiguration {
        let paths = ConnPaths(environment: environment)
        let file = try readConfigFile(overrides: overrides, paths: paths)
        let layers = ConfigurationLayers(overrides: overrides, environment: environment, file: file)

        let (profile, profileSource) = try layers.string(["profile"], profile: nil) ?? ("default", .defaultValue)
        if profile != "default", let document = file.document, !document.profileNames.contains(profile) {
            let defined = document.profileNames
            throw ConnError.configuration(
                "profile '\(profile)' (from \(profileSource)) is not defined in \(file.path)",
                hint: defined.isEmpty
                    ? "The file defines no profiles; add one under `profiles:`."
                    : "Defined profiles: \(defined.joined(separator: ", ")).")
        } else if profile != "default", file.document == nil, !overrides.ignoresConfigFile {
            throw ConnError.configuration(
                "profile '\(profile)' (from \(profileSource)) cannot be used: there is no config file at \(file.path)",
                hint: "Create the file with a `profiles: { \(profile): { server: … } }` section.")
        }

        var sources: [String: ValueSource] = ["profile": profileSource]
        func value(_ key: String) throws -> String? {
            guard let (text, source) = try layers.string(key.split(separator: ".").map(String.init), profile: profile)
            else { return nil }
            sources[key] = source
            return text
        }

        var resourcePaths: [BackEndResource: String] = [:]
        for resource in BackEndResource.allCases {
            let key = "resources.\(resource.rawValue)"
            guard let path = try value(key) else { continue }
            if path.contains("://"), BackEndEndpoint.absoluteURL(path) == nil {
                throw ConnError.configuration(
                    "resource \(resource.rawValue) '\(URLUserinfo.redacted(path))' (from \(sources[key]!)) "
                        + (URLUserinfo.isPresent(in: path) ? URLUserinfo.problem : "is neither a path nor an absolute http(s) URL with a port in 1-65535"),
                    hint: "Use a path such as \(resource.defaultPath), or a full URL such as https://example.com\(resource.defaultPath).")
            }
            resourcePaths[resource] = path
        }
        let backEnd: BackEndEndpoint?
        if let serverText = try value("server") {
            guard let url = BackEndEndpoint.parseServerURL(serverText) else {
                throw ConnError.configuration(
                    "server '\(URLUserinfo.redacted(serverText))' (from \(sources["server"]!)) \(BackEndEndpoint.serverURLProblem(serverText) ?? "is unusable")",
                    hint: URLUserinfo.isPresent(in: serverText) ? URLUserinfo.hint : "Example: http://127.0.0.1:8080")
            }
            backEnd = BackEndEndpoint(baseURL: url, resourcePaths: resourcePaths)
        } else {
            backEnd = nil
        }

        var configuration = ConnConfiguration(
            profile: profile, configFile: file.path, configFileExists: file.exists, backEnd: backEnd, paths: paths,
            sources: sources, warnings: file.warnings)
        configuration.profileNames = file.document?.profileNames ?? []
        configuration.configFileHoldsToken = file.document?.containsToken ?? false
        if backEnd == nil {
            // Without a server, a resource given as a full URL still stands on its own.
            configuration.standaloneResources = resourcePaths.compactMapValues { BackEndEndpoint.absoluteURL($0) }
        }
        configuration.proxy = ProxySettings(environment: environment)
        for setting in ConfigSetting.all {
            if let text = try value(setting.key) {
                try setting.read(text, sources[setting.key]!, &configuration)
            } else {
                sources[setting.key] = .defaultValue
            }
        }
        // A token written in the config file belongs to the server the file names (for this
        // profile, else at the top): a `--server` or CONN_SERVER naming another origin does not get
        // it, so a typo or a pasted URL cannot hand it to whoever listens there. A token given in
        // CONN_TOKEN or on the command line goes with the server given with it.
        if case .file = sources["token"], configuration.token != nil, let effective = backEnd?.baseURL,
            let (fileServerText, _) = try layers.fileString(["server"], profile: profile),
            let fileServer = BackEndEndpoint.parseServerURL(fileServerText), let issuedFor = Origin(fileServer),
            let effectiveOrigin = Origin(effective), issuedFor != effectiveOrigin
        {
            configuration.token = nil
            configuration.withheldToken = WithheldToken(issuedFor: issuedFor.description, server: effectiveOrigin.description,
                                                        source: sources["token"]!.description)
        }
        // `conn login`'s token, when no token is configured: only for the server that granted it,
        // and only until it expires.
        let signInFile = SignIn.file(paths: paths, profile: profile)
        do {
            if let signIn = try SignIn.load(from: signInFile) {
                configuration.signIn = signIn
                if configuration.token == nil, let server = backEnd?.baseURL, signIn.isFor(server: server), signIn.expiresAt > Date() {
                    configuration.token = signIn.token
                    sources["token"] = .signIn(email: signIn.email)
                    configuration.withheldToken = nil
                } else if configuration.token == nil, configuration.withheldToken == nil, let server = backEnd?.baseURL,
                    !signIn.isFor(server: server), let effective = Origin(server),
                    let issuedFor = URL(string: signIn.server).flatMap(Origin.init)
                {
                    configuration.withheldToken = WithheldToken(issuedFor: issuedFor.description, server: effective.description,
                                                                source: "conn login as \(signIn.email)")
                }
            }
        } catch let error as ConnError {
            configuration.warnings.append(error.message + (error.hint.map { " " + $0 } ?? ""))
        }
        if let warning = TimeFormatting.unknownZoneWarning(environment: environment) { configuration.warnings.append(warning) }
        for key in ["profile", "server"] where sources[key] == nil { sources[key] = .defaultValue }
        configuration.sources = sources
        return configuration
    }

    /// Finds, reads and checks the config file. A file named explicitly must exist; the default
    /// one may be absent.
    private func readConfigFile(overrides: ConfigurationOverrides, paths: ConnPaths) throws -> ConfigFileLayer {
        // A relative path is the working directory's, as for every other path argument
        // (`config set` once tried to create the directory "").
        func absolute(_ path: String) -> String {
            path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        }
        let explicitPath: (String, ValueSource)? =
            overrides.configFile.map { (absolute($0), .flag("--config")) }
            ?? environment["CONN_CONFIG"].flatMap { $0.isEmpty ? nil : (absolute($0), .environment("CONN_CONFIG")) }
        let path = explicitPath?.0 ?? paths.defaultConfigFile

        if let candidateText {
            return try checkedLayer(path: path, data: Data(candidateText.utf8), text: candidateText)
        }
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        if overrides.ignoresConfigFile {
            return ConfigFileLayer(path: path, exists: exists, document: nil, warnings: [])
        }
        guard exists else {
            if let (path, source) = explicitPath {
                throw ConnError.configuration(
                    "config file \(path) (from \(source)) does not exist",
                    hint: "Create it, or leave out \(source.kind == "flag" ? "--config" : "CONN_CONFIG") to use \(paths.defaultConfigFile).")
            }
            return ConfigFileLayer(path: path, exists: false, document: nil, warnings: [])
        }
        guard !isDirectory.boolValue else {
            throw ConnError.configuration(
                "config file \(path) is a directory, not a file", hint: "Check that it is a file and that you may read it.")
        }
        // Only a regular file (a link to one is fine): reading a FIFO or a terminal would wait
        // for ever for a writer.
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
            let kind = switch status.st_mode & S_IFMT {
            case S_IFIFO: "a FIFO"
            case S_IFCHR: "a character device"
            case S_IFBLK: "a block device"
            case S_IFSOCK: "a socket"
            default: "not a regular file"
            }
            throw ConnError.configuration("config file \(path) is \(kind), not a regular file: it is not read",
                                          hint: "Give the path of a YAML file (--config or CONN_CONFIG).")
        }
        let data = try ConfigFileReader.read(path)
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConnError.configuration("config file \(path) is not UTF-8 text")
        }
        return try checkedLayer(path: path, data: data, text: text)
    }

    /// Parses and checks the file's text: structure, unknown keys, permissions.
    private func checkedLayer(path: String, data: Data, text: String) throws -> ConfigFileLayer {
        let document = try ConfigFileDocument(path: path, text: text)
        var warnings = try document.validate()
        if document.containsToken, let mode = Self.permissions(of: path), mode & 0o077 != 0 {
            warnings.append(
                "\(path) holds a token and is readable by others (mode \(String(mode, radix: 8))); run: chmod 600 \(path)")
        }
        return ConfigFileLayer(path: path, exists: true, document: document, warnings: warnings)
    }

    /// The mode of the file itself: through a symlink (a config kept in a dotfiles repository),
    /// the target's, which is what others can read; the link's own is always 0777.
    private static func permissions(of path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_mode & 0o7777)
    }
}

/// The config file as read: its path and its YAML tree (values and their lines; parsed once, by
/// ConfigFileDocument). `document` is nil when there is no file.
struct ConfigFileLayer {
    let path: String
    let exists: Bool
    let document: ConfigFileDocument?
    let warnings: [String]
}

/// The lookup order, highest first. Each lookup returns the raw text and where it came from.
struct ConfigurationLayers {
    let overrides: ConfigurationOverrides
    let environmentProvider: EnvironmentVariablesProvider
    /// Whether any variable could be one of conn's: the provider spells every key `CONN_…`, and
    /// turning a key into that name costs more than the rest of a lookup (Unicode properties of
    /// each character), so without such a variable the environment is not asked at all.
    let environmentMayHoldSettings: Bool
    let file: ConfigFileLayer

    init(overrides: ConfigurationOverrides, environment: [String: String], file: ConfigFileLayer) {
        self.overrides = overrides
        self.environmentProvider = EnvironmentVariablesProvider(
            environmentVariables: environment, secretsSpecifier: .specific(["CONN_TOKEN"]))
        self.environmentMayHoldSettings = environment.keys.contains { $0.utf8.count > 5 && $0.prefix(5).uppercased() == "CONN_" }
        self.file = file
    }

    /// Looks `components` up in each layer; `profile` scopes the file lookup to that profile's
    /// section first. Empty environment variables count as unset.
    func string(_ components: [String], profile: String?) throws -> (String, ValueSource)? {
        let dotted = components.joined(separator: ".")
        if let flagValue = overrides.valuesByKey[dotted] {
            return (flagValue, .flag(overrides.flagName(for: dotted)))
        }
        if environmentMayHoldSettings {
            let environmentResult = try environmentProvider.value(
                forKey: AbsoluteConfigKey(["conn"] + components), type: .string)
            if let content = environmentResult.value?.content, case .string(let text) = content, !text.isEmpty {
                return (text, .environment(environmentResult.encodedKey))
            }
        }
        return try fileString(components, profile: profile)
    }

    /// The config file's own value (the profile's section first), whatever the flags and the
    /// environment say.
    func fileString(_ components: [String], profile: String?) throws -> (String, ValueSource)? {
        guard let document = file.document else { return nil }
        var candidates: [[String]] = [components]
        if let profile { candidates.insert(["profiles", profile] + components, at: 0) }
        for key in candidates {
            guard let node = document.node(at: key) else { continue }
            // A section (a mapping) is not a value; `validate` has refused lists where one is due.
            guard let scalar = node.scalar else {
                if node.mapping != nil { continue }
                throw ConnError.configuration("\(file.path):\(node.mark?.line ?? 0): key '\(key.joined(separator: "."))' must be a single value, not a list")
            }
            return (scalar.string, .file(path: file.path, line: node.mark?.line))
        }
        return nil
    }
}

/// What checking a config file's text found, when it is good.
public struct ConfigFileCheck: Sendable {
    /// Unknown keys and the like: worth saying, not wrong.
    public var warnings: [String]
    /// A token is set in it (the top level or a profile): the file must be private.
    public var holdsToken: Bool
}

extension ConfigurationLoader {
    /// Checks a config file's text as every command would read it: with each profile it defines
    /// (and the top level), with nothing from CONN_* variables hiding a bad value in the file.
    /// Throws the first error, naming `path` and its line.
    public static func check(candidateText: String, path: String, environment: [String: String]) throws -> ConfigFileCheck {
        var fileOnly = environment.filter { !$0.key.hasPrefix("CONN_") }
        fileOnly["CONN_CONFIG"] = path
        let loader = ConfigurationLoader(environment: fileOnly, candidateText: candidateText)
        let configuration = try loader.load()
        for profile in configuration.profileNames {
            _ = try loader.load(ConfigurationOverrides(profile: profile))
        }
        return ConfigFileCheck(warnings: configuration.warnings, holdsToken: configuration.configFileHoldsToken)
    }
}
