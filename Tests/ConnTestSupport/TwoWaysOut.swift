import Foundation

/// Two ways out of `client` to a conn-server at 10.79.0.9 (on the other namespace's loopback):
/// `first` (10.77.0.0/24) and `second` (10.78.0.0/24), the default route by `first`. Moving the
/// default route to `second` changes the path while the server keeps answering.
public struct TwoWaysOut: Sendable {
    public let client: NetworkNamespace
    public let serverSide: NetworkNamespace
    public let first: String, firstPeer: String
    public let second: String, secondPeer: String
    public let server: BackgroundServer

    public init() async throws {
        client = try await NetworkNamespace.make()
        serverSide = try await NetworkNamespace.make()
        let suffix = client.name.suffix(8)
        (first, firstPeer, second, secondPeer) = ("va" + suffix, "wa" + suffix, "vb" + suffix, "wb" + suffix)
        for (interface, peer, subnet) in [(first, firstPeer, "10.77.0"), (second, secondPeer, "10.78.0")] {
            try await client.veth(interface, address: "\(subnet).1/24", to: serverSide, peer: peer, peerAddress: "\(subnet).2/24")
        }
        try await serverSide.exec(["ip", "addr", "add", "10.79.0.9/32", "dev", "lo"])
        try await client.exec(["ip", "route", "add", "default", "via", "10.77.0.2", "dev", first])
        server = try await BackgroundServer.start(["--host", "10.79.0.9"], wrapper: [NetworkNamespace.ipPath, "netns", "exec", serverSide.name])
    }

    /// Moves the default route to `second`.
    public func moveDefaultRoute() async throws {
        try await client.exec(["ip", "route", "replace", "default", "via", "10.78.0.2", "dev", second])
    }
}
