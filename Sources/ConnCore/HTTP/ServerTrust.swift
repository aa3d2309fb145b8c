import NIOSSL

/// Which certificates a server may show — the back end's, a probe's target's — as curl's
/// `--cacert` and `--insecure` say it: the system's trust store by default, the certificates of a
/// PEM file instead of it (a staging or internal back end signed by a company CA), or none
/// checked. The one value every TLS connection to a server is made with (`ClientTLS`): the probe's
/// handshake, the HTTP client, the live link, the clock's connections, `/probe`'s targets.
/// An https:// proxy's certificate has its own (`ProxyTrust`).
public struct ServerTrust: Sendable, Hashable {
    /// `--insecure` / `insecure`: the certificate is not checked.
    public var insecure: Bool
    /// `--cacert` / `caCert`: a PEM file of the certificates that may sign the server's.
    public var caFile: String?

    public init(insecure: Bool = false, caFile: String? = nil) {
        self.insecure = insecure
        self.caFile = caFile
    }

    public static let system = ServerTrust()

    /// The certificates of a PEM file, or why it cannot be used (the option's and the setting's
    /// checks name where the path came from).
    public static func certificates(in path: String) -> Result<[NIOSSLCertificate], ConnError> {
        PEMTrust.certificates(in: path, named: "the CA file", hint: hint)
    }

    public static let hint = "Give a PEM file with the CA certificate that signed the server's (curl's --cacert), or --insecure not to check it."

    /// The TLS client configuration for a connection to a server.
    public func tlsConfiguration() throws -> TLSConfiguration {
        try PEMTrust.configuration(insecure: insecure, roots: caFile.map { try Self.certificates(in: $0).get() })
    }

    /// What `config show` and messages say of it.
    public var description: String {
        insecure ? "not checked (insecure)" : caFile.map { "signed by a certificate in \($0) (caCert)" } ?? "the system's trust store"
    }
}

/// What `ServerTrust` and `ProxyTrust` share: a PEM file read as certificates (or why not, in
/// the caller's words), and a client configuration that checks against them, the system's
/// store, or nothing.
enum PEMTrust {
    static func certificates(in path: String, named what: String, hint: String) -> Result<[NIOSSLCertificate], ConnError> {
        do {
            let certificates = try NIOSSLCertificate.fromPEMFile(path)
            guard !certificates.isEmpty else { return .failure(.usage("\(what) \(path) holds no PEM certificate", hint: hint)) }
            return .success(certificates)
        } catch {
            return .failure(.usage("\(what) \(path) cannot be read as PEM certificates", hint: hint))
        }
    }

    /// Full verification against `roots` (nil: the system's store), or none when `insecure`.
    static func configuration(insecure: Bool, roots: [NIOSSLCertificate]?) -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if insecure {
            configuration.certificateVerification = .none
        } else if let roots {
            configuration.trustRoots = .certificates(roots)
        }
        return configuration
    }
}
