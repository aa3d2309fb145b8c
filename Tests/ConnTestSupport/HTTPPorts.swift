/// Ports for tests.
public enum HTTPPorts {
    /// A loopback TCP port that nothing listens on right now (bound, then released).
    public static func closed() throws -> Int {
        let listener = try LoopbackListener()
        defer { listener.close() }
        return listener.port
    }
}
