import NIOSSL

/// Which certificates an https:// proxy may show (TLS to the proxy itself, curl's
/// `--proxy-cacert` and `--proxy-insecure`): the system's trust store by default, the
/// certificates of a PEM file instead of it, or none checked. Kept apart from the server's
/// `--insecure`: trusting a proxy says nothing about the server behind it.
public struct ProxyTrust: Sendable, Hashable {
    /// `--proxy-insecure` / `proxyInsecure`: the proxy's certificate is not checked.
    public var insecure: Bool
    /// `--proxy-cacert` / `proxyCaCert`: a PEM file of the certificates that may sign the proxy's.
    public var caFile: String?

    public init(insecure: Bool = false, caFile: String? = nil) {
        self.insecure = insecure
        self.caFile = caFile
    }

    public static let system = ProxyTrust()

    /// The certificates of a PEM file, or why it cannot be used (for the option's and the
    /// setting's checks, which name where the path came from).
    public static func certificates(in path: String) -> Result<[NIOSSLCertificate], ConnError> {
        PEMTrust.certificates(in: path, named: "the proxy CA file", hint: hint)
    }

    public static let hint = "Give a PEM file with the certificate (or its CA's) that the proxy shows, or --proxy-insecure not to check it."

    /// The TLS client configuration for a connection to the proxy.
    public func tlsConfiguration() throws -> TLSConfiguration {
        try PEMTrust.configuration(insecure: insecure, roots: caFile.map { try Self.certificates(in: $0).get() })
    }

    /// What `config show` and -v say of it.
    public var description: String {
        insecure ? "not checked (proxyInsecure)" : caFile.map { "signed by a certificate in \($0) (proxyCaCert)" } ?? "the system's trust store"
    }
}
