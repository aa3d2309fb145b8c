import ArgumentParser
import ConnCore

/// `--interface NAME|ADDRESS`, `-4`, `-6`: the way out, for the commands that connect to look
/// (probe, watch, the agent, top, clock-offset).
public struct EgressOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Connect out through this interface only (eth0, wlan0, wwan0: bound to the device, so only its routes apply), or from this local address.",
                               valueName: "name|address"), completion: LiveCompletion.interfaces)
    public var interface: String?

    @Flag(name: [.customShort("4"), .customLong("ipv4")], help: "Use IPv4 addresses only.")
    public var ipv4 = false

    @Flag(name: [.customShort("6"), .customLong("ipv6")], help: "Use IPv6 addresses only.")
    public var ipv6 = false

    public init() {}

    /// The options, checked against this machine's interfaces (64 for one it does not have).
    public func egress() throws -> Egress {
        try Egress.parse(interface: interface, ipv4: ipv4, ipv6: ipv6)
    }

    /// `configuration` with these options' way out.
    public func applied(to configuration: ConnConfiguration) throws -> ConnConfiguration {
        var configuration = configuration
        configuration.egress = try egress()
        return configuration
    }
}
