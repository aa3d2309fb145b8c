import NIOSSL

/// TLS for the WebSocket paths (the watch/REPL link, the ws clock method), from the same
/// `insecure` setting as HTTP: `--insecure` (or `insecure: true`) must not accept a self-signed
/// certificate over HTTP and refuse it over wss.
public enum WebSocketTLS {
    /// nil leaves the library's default: full verification.
    public static func configuration(insecure: Bool) -> TLSConfiguration? {
        guard insecure else { return nil }
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .none
        return configuration
    }
}
