import ConnCore
import Foundation

/// A network namespace made for one test (`ip netns add`), deleted afterwards. Traffic in it never
/// leaves it: it is the project's own test host.
public final class NetworkNamespace: @unchecked Sendable {
    public let name: String

    /// Whether namespaces can be made here (root, iproute2); tests that need one are skipped
    /// otherwise, saying why.
    public static let available: Bool = {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: ipPath) else { return false }
        let probe = "conn-probe-\(getpid())"
        defer { _ = try? shell([ipPath, "netns", "delete", probe]) }
        return (try? shell([ipPath, "netns", "add", probe])) == 0
    }()

    public static let ipPath = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip"].first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/usr/sbin/ip"

    /// Makes a namespace with its loopback up. Every `ip` runs as a child the test awaits
    /// without holding one of the test run's few threads (a blocking wait per call starved the
    /// in-process suites while many namespace tests started at once).
    public static func make() async throws -> NetworkNamespace {
        let namespace = NetworkNamespace(name: "conn-test-\(UUID().uuidString.prefix(8).lowercased())")
        try await namespace.run(["netns", "add", namespace.name])
        try await namespace.exec(["ip", "link", "set", "lo", "up"])
        return namespace
    }

    private init(name: String) { self.name = name }

    /// Deleted by a child nobody waits for (SpawnedProcess reaps it): a deinit cannot await.
    deinit { _ = try? SpawnedProcess(Self.ipPath, ["netns", "delete", name]) }

    /// Runs `ip ARGS…`.
    public func run(_ arguments: [String]) async throws {
        let outcome = try await ConnProcess.run(Self.ipPath, arguments, environment: ProcessInfo.processInfo.environment)
        guard outcome.exitCode == 0 else { throw POSIXError(.EINVAL) }
    }

    /// Runs a command inside the namespace (the `ip` of the host names the program).
    public func exec(_ command: [String]) async throws {
        let program = command[0] == "ip" ? [Self.ipPath] + command.dropFirst() : command
        try await run(["netns", "exec", name] + program)
    }

    /// Makes `address` (in 192.0.2.0/24, TEST-NET-1) routable but silent: veth0 carries the
    /// subnet, its peer has no address, so packets arrive nowhere. A permanent neighbour entry
    /// keeps ARP out of it (a failed ARP would read as "no route"). Once per namespace.
    public func blackhole(_ address: String) async throws {
        try await exec(["ip", "link", "add", "veth0", "type", "veth", "peer", "name", "veth1"])
        try await exec(["ip", "addr", "add", "192.0.2.1/24", "dev", "veth0"])
        try await exec(["ip", "link", "set", "veth0", "up"])
        try await exec(["ip", "link", "set", "veth1", "up"])
        try await exec(["ip", "neigh", "add", address, "lladdr", "02:00:00:00:00:01", "dev", "veth0", "nud", "permanent"])
    }

    /// Joins this namespace to `other` by a veth pair, `interface` here and `peer` there, each end
    /// up with its address (CIDR, e.g. 10.77.0.1/24; nil: none).
    public func veth(_ interface: String, address: String?, to other: NetworkNamespace, peer: String, peerAddress: String?) async throws {
        try await run(["link", "add", interface, "netns", name, "type", "veth", "peer", "name", peer, "netns", other.name])
        for (namespace, link, cidr) in [(self, interface, address), (other, peer, peerAddress)] {
            if let cidr { try await namespace.exec(["ip", "addr", "add", cidr, "dev", link]) }
            try await namespace.exec(["ip", "link", "set", link, "up"])
        }
    }

    /// The arguments that run `command` inside the namespace, for ConnProcess.run.
    public func wrap(_ command: [String]) -> (String, [String]) {
        (Self.ipPath, ["netns", "exec", name] + command)
    }

    @discardableResult
    static func shell(_ arguments: [String]) throws -> Int32 {
        let process = try SpawnedProcess(arguments[0], Array(arguments.dropFirst()))
        return process.waitForExit()
    }
}
