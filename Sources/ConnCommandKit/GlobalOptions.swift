import ArgumentParser
import ConnCore

/// The options every conn command accepts, after its own name (`conn config show --json`).
public struct GlobalOptions: ParsableArguments, Sendable {
    @Option(help: ArgumentHelp("The back end's base URL, e.g. http://127.0.0.1:8080 (overrides the profile).", valueName: "url"))
    public var server: String?

    @Option(help: ArgumentHelp("The profile of the config file to use.", valueName: "name"), completion: LiveCompletion.profiles)
    public var profile: String?

    @Option(
        help: ArgumentHelp("The config file to read instead of $XDG_CONFIG_HOME/conn/config.yaml.", valueName: "path"),
        completion: .file(extensions: ["yaml", "yml"]))
    public var config: String?

    @Option(help: "Output format: text for people, json for scripts, prometheus (conn probe only) for Prometheus's textfile collector.")
    public var format: OutputFormat?

    @Flag(help: "Short for --format json.")
    public var json = false

    @Option(help: ArgumentHelp("Deadline for each network operation, from connecting to its last byte: seconds (10, 2.5) or 500ms, 5s, 2m; more than 0, at most 3650d.", valueName: "duration"))
    public var timeout: PositiveDuration?

    @Option(help: "When to use colour: auto (only on a terminal, not with NO_COLOR), always, never.")
    public var color: ColorMode?

    @Flag(help: "Accept TLS certificates that do not verify, for HTTP and WebSocket alike (self-signed test servers only).")
    public var insecure = false

    @Option(name: .customLong("cacert"), help: ArgumentHelp("A PEM file of the CA certificates a server's certificate may be signed by, instead of the system's (a back end signed by a company CA).", valueName: "file"), completion: .file())
    public var caCert: String?

    @Option(help: ArgumentHelp("The proxy for every request: http://HOST:PORT, https:// (TLS to the proxy), socks5://, socks5h://, with USER:PASSWORD and an @ before the host if it wants them; '' for none (overrides the proxy variables).", valueName: "url"))
    public var proxy: String?

    @Option(name: .customLong("noproxy"), help: ArgumentHelp("Hosts to reach without the proxy: comma-separated names (and their subdomains), addresses, CIDR ranges, :PORT; * alone for all (overrides NO_PROXY).", valueName: "list"))
    public var noProxy: String?

    @Option(name: .customLong("proxy-cacert"), help: ArgumentHelp("A PEM file of the certificates an https:// proxy's certificate may be signed by, instead of the system's.", valueName: "file"), completion: .file())
    public var proxyCaCert: String?

    @Flag(name: .customLong("proxy-insecure"), help: "Do not check an https:// proxy's certificate (the server's is still checked: --insecure is for that).")
    public var proxyInsecure = false

    @Flag(name: .customLong("no-pager"), help: "Never send long output through the pager (as CONN_PAGER=cat).")
    public var noPager = false

    @Flag(help: "Show times in text in UTC instead of local time (JSON is always UTC).")
    public var utc = false

    @Flag(name: .shortAndLong, help: "Print what conn does on stderr (requests, timings, config sources).")
    public var verbose = false

    @Flag(name: .shortAndLong, help: "Print nothing on stderr but errors.")
    public var quiet = false

    public init() {}

    public func validate() throws {
        if json, let format, format != .json {
            throw ValidationError("--json and --format \(format.rawValue) contradict each other; give one of them.")
        }
        if verbose && quiet {
            throw ValidationError("--verbose and --quiet contradict each other; give one of them.")
        }
        if let proxy, !proxy.trimmingBlanks().isEmpty, case .failure(let problem) = ProxyServer.read(proxy) {
            throw ValidationError("--proxy '\(URLUserinfo.redacted(proxy))' \(problem.why). \(ProxyServer.hint)")
        }
        if let caCert, case .failure(let problem) = ServerTrust.certificates(in: caCert) {
            throw ValidationError("--cacert: \(problem.message). \(ServerTrust.hint)")
        }
        if let proxyCaCert, case .failure(let problem) = ProxyTrust.certificates(in: proxyCaCert) {
            throw ValidationError("--proxy-cacert: \(problem.message). \(ProxyTrust.hint)")
        }
        if let server, let problem = BackEndEndpoint.serverURLProblem(server) {
            throw ValidationError("--server '\(URLUserinfo.redacted(server))' \(problem); example: http://127.0.0.1:8080"
                                  + (URLUserinfo.isPresent(in: server) ? ". " + URLUserinfo.hint : ""))
        }
    }

    /// The command-line layer of the configuration.
    public var overrides: ConfigurationOverrides {
        var overrides = ConfigurationOverrides(
            server: server, profile: profile, configFile: config,
            format: json ? OutputFormat.json.rawValue : format?.rawValue,
            timeout: timeout?.description, color: color?.rawValue)
        if insecure { overrides.insecure = "true" }
        overrides.caCert = caCert
        if utc { overrides.utc = "true" }
        overrides.proxy = proxy
        overrides.noProxy = noProxy
        if proxyInsecure { overrides.proxyInsecure = "true" }
        overrides.proxyCaCert = proxyCaCert
        if json && format == nil { overrides.formatFlagName = "--json" }
        return overrides
    }

    public var verbosity: Verbosity { verbose ? .verbose : quiet ? .quiet : .normal }

    /// How many words a global option takes at `index` (1, or 2 with a separate value); nil when
    /// the word there is not a global option.
    public static func globalOptionWidth(_ arguments: [String], at index: Int) -> Int? {
        let argument = arguments[index]
        let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
        if optionsTakingValues.contains(name) { return argument.contains("=") ? 1 : 2 }
        if flags.contains(name) { return 1 }
        return nil
    }

    /// How many words at the start of `arguments` are global options (with their values); nil
    /// when one of them is a request ArgumentParser answers itself (help, version, completion)
    /// or not a global option at all, which ArgumentParser must then report.
    public static func leadingOptionCount(_ arguments: [String]) -> Int? {
        var index = 0
        while index < arguments.count, arguments[index].hasPrefix("-") {
            guard let width = globalOptionWidth(arguments, at: index) else { return nil }
            index += width
        }
        return min(index, arguments.count)
    }

    /// The command line with global options given before or between the words of the command's
    /// name moved after it (`conn --json inbox list`, `conn inbox --json list` → `inbox list
    /// --json`), where each command declares them. A group given nothing but global options
    /// (`conn inbox --json`) is left alone, so it prints its help. `subcommands` gives a
    /// command's subcommand names (the command tree).
    public static func movingLeadingOptions(_ arguments: [String], subcommands: ([String]) -> [String]) -> [String] {
        var path: [String] = []
        var options: [String] = []
        var index = 0
        while index < arguments.count {
            if arguments[index].hasPrefix("-") {
                guard let width = globalOptionWidth(arguments, at: index) else { break }
                options += arguments[index..<min(index + width, arguments.count)]
                index += width
            } else if subcommands(path).contains(arguments[index]) {
                path.append(arguments[index])
                index += 1
            } else {
                break
            }
        }
        guard !path.isEmpty, !options.isEmpty else { return arguments }
        if index >= arguments.count, !subcommands(path).isEmpty { return path }
        return path + options + arguments[min(index, arguments.count)...]
    }

    /// The names of the options that take a value, for code that must skip them in a raw argument
    /// list before ArgumentParser runs (plugin dispatch). Kept in step by a test.
    public static let optionsTakingValues: Set<String> = ["--server", "--profile", "--config", "--format", "--timeout", "--color", "--proxy", "--noproxy", "--proxy-cacert",
                                                          "--cacert"]
    /// Options without a value.
    public static let flags: Set<String> = ["--json", "--insecure", "--proxy-insecure", "--utc", "--no-pager", "--verbose", "-v", "--quiet", "-q"]
}

/// How much conn says on stderr.
public enum Verbosity: Sendable, Comparable {
    case quiet, normal, verbose
}

extension OutputFormat: NamedValueArgument {}
extension ColorMode: NamedValueArgument {}
