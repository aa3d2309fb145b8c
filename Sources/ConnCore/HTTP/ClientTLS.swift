import NIOSSL

/// The TLS client configuration of every connection conn makes — HTTP, the WebSocket link and
/// clock method, probe's handshake — from the one `insecure` setting: `--insecure` (or
/// `insecure: true`) must not accept a self-signed certificate on one path and refuse it on another.
public enum ClientTLS {
    /// Full verification, or none when `insecure`.
    public static func configuration(insecure: Bool) -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if insecure { configuration.certificateVerification = .none }
        return configuration
    }
}
