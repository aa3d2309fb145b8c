import NIOSSL

/// The TLS client configuration of every connection conn makes to a server — HTTP, the
/// WebSocket link and clock method, probe's handshake — from the one `ServerTrust` (`--insecure`,
/// `--cacert`): a certificate must not be accepted on one path and refused on another.
public enum ClientTLS {
    /// Full verification against the system's store or `--cacert`'s, or none when `insecure`.
    public static func configuration(_ trust: ServerTrust) throws -> TLSConfiguration {
        try trust.tlsConfiguration()
    }

    /// Full verification against the system's store, or none when `insecure`.
    public static func configuration(insecure: Bool) -> TLSConfiguration {
        PEMTrust.configuration(insecure: insecure, roots: nil)
    }

    /// The name sent as SNI and checked against the certificate: the host, except for an IP
    /// literal, which SNI may not carry (RFC 6066, 3) and which NIOSSL refuses as a server name;
    /// the certificate is then checked against the address.
    public static func serverName(for host: String) -> String? {
        IPLiteral.isLiteral(host) ? nil : host
    }
}
