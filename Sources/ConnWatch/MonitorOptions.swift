import ArgumentParser
import ConnCommandKit
import ConnCore
import ConnProbe

/// What a monitor watches and how often: the options `conn watch` and `conn agent` share.
public struct MonitorOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("Hosts (host:port) or URLs to watch.", valueName: "target"))
    var targets: [String] = []

    @Option(help: ArgumentHelp("How often to probe while online: 500ms, 5s, 2m (more than 0).", valueName: "duration"))
    public var interval: PositiveDuration = "30s"

    @Option(help: ArgumentHelp("Report a failure only once it has lasted this long (flaps shorter than this are not reported): 0, 500ms, 5s.", valueName: "duration"))
    public var grace: NonNegativeDuration = "0"

    @Flag(help: "Check the internet too (default when no target and no server is given).")
    var internet = false

    @Flag(name: .customLong("no-internet"), help: "Never run the internet check.")
    var noInternet = false

    @Option(name: .customLong("internet-url"), help: ArgumentHelp("An internet check endpoint: URL[=STATUS[:TEXT]] (repeatable).", valueName: "url"))
    var internetURLs: [String] = []

    @Flag(name: .customLong("no-link"), help: "Do not hold the WebSocket link to the server.")
    public var noLink = false

    public init() {}

    /// The check these options ask for: the targets (default: the configured server) and, unless
    /// --no-internet, the internet check (by default only when no target was given).
    public func check(configuration: ConnConfiguration) throws -> ConnectivityCheck {
        var probeTargets = try targets.map(ProbeTarget.parse)
        if probeTargets.isEmpty, let backEnd = configuration.backEnd {
            probeTargets = [.server(backEnd)]
        }
        let checkInternet = !noInternet && (internet || !internetURLs.isEmpty || targets.isEmpty)
        let endpoints = checkInternet ? try (internetURLs.isEmpty ? ConnectivityCheck.defaultInternetEndpoints : internetURLs.map(InternetEndpoint.parse)) : []
        guard !probeTargets.isEmpty || !endpoints.isEmpty else {
            throw ConnError.usage("nothing to watch: give a target, configure a server, or leave out --no-internet")
        }
        return ConnectivityCheck(targets: probeTargets, internetEndpoints: endpoints, configuration: configuration)
    }
}
