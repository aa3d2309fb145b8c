import ArgumentParser
import ConnCommandKit
import ConnCore
import ConnProbe
import Logging

/// What a monitor watches and how often: the options `conn watch` and `conn agent` share.
public struct MonitorOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("Hosts (host:port) or URLs to watch.", valueName: "target"))
    var targets: [String] = []

    @Option(help: ArgumentHelp("How often to probe while online: 500ms, 5s, 2m (more than 0).", valueName: "duration"))
    public var interval: PositiveDuration = "30s"

    @Option(help: ArgumentHelp("Report a failure only once it has lasted this long (flaps shorter than this are not reported): 0, 500ms, 5s.", valueName: "duration"))
    public var grace: NonNegativeDuration = "0"

    @OptionGroup var internetChecks: InternetCheckOptions

    @Flag(name: .customLong("no-link"), help: "Do not hold the WebSocket link to the server.")
    public var noLink = false

    @OptionGroup(title: "Way out") public var way: EgressOptions

    public init() {}

    /// The targets given (those that parse): what /probe may reach besides the server, by host and port.
    public var probeTargets: [ProbeTarget] { targets.compactMap { try? ProbeTarget.parse($0) } }

    /// The check these options ask for: the targets (default: the configured server) and, unless
    /// --no-internet, the internet check (by default only when no target was given).
    public func check(configuration: ConnConfiguration) throws -> ConnectivityCheck {
        let configuration = try way.applied(to: configuration)
        var probeTargets = try targets.map(ProbeTarget.parse)
        if probeTargets.isEmpty, let backEnd = configuration.backEnd {
            probeTargets = [.server(backEnd)]
        }
        let endpoints = try internetChecks.endpoints(byDefault: targets.isEmpty, configuration: configuration)
        guard !probeTargets.isEmpty || !endpoints.isEmpty else {
            throw ConnError.usage("nothing to watch: give a target, configure a server, or leave out --no-internet")
        }
        return try ConnectivityCheck(targets: probeTargets, internetEndpoints: endpoints, internetRequired: internetChecks.requested || probeTargets.isEmpty,
                                 configuration: configuration)
    }

    /// A live session's parts as these options ask: the check, the timing and, unless --no-link,
    /// the link to the configured server.
    public func parts(configuration: ConnConfiguration, logger: Logger) throws -> LiveSession.Parts {
        let configuration = try way.applied(to: configuration)
        let link = noLink ? nil : configuration.backEnd.map { BackEndLink($0, configuration: configuration, logger: logger) }
        return LiveSession.Parts(check: try check(configuration: configuration), interval: interval.duration, grace: grace.duration, link: link)
    }
}
