import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import X509

/// Which check a server's certificate failed, as curl and openssl say it: expired (with the
/// date), not yet valid, for other names (with the names it holds), or signed by an issuer the
/// trust in use does not hold. BoringSSL says only "certificate verify failed"; the certificate
/// is read again over a second handshake that checks nothing, and judged here.
public enum CertificateDiagnosis {
    /// Why the certificate of `host`, reached at `address` (an IP, or the name itself) and
    /// `port`, was refused; nil when it cannot be read again (the server went away meanwhile).
    public static func explain(host: String, address: String? = nil, port: Int, trust: ServerTrust, timeout: Duration, egress: Egress = .any,
                               now: Date = Date()) async -> String? {
        let bootstrap = egress.applied(to: ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connectTimeout(.nanoseconds(timeout.nanoseconds)))
        guard let channel = try? await egress.dial(bootstrap, host: address ?? host, port: port, timeout: timeout) else { return nil }
        defer { channel.close(promise: nil) }
        let outcome = await TLSHandshake.run(on: channel, configuration: ClientTLS.configuration(insecure: true),
                                             serverName: ClientTLS.serverName(for: host), timeout: timeout)
        guard case .established(_, let shown?, _) = outcome, let der = try? shown.toDERBytes(),
            let certificate = try? Certificate(derEncoded: der)
        else { return nil }
        return explain(certificate, host: host, trust: trust, now: now)
    }

    /// Whether a TLS failure's words are a refused certificate (what `explain` can say more of).
    public static func isVerificationFailure(_ words: String) -> Bool {
        words.contains("certificate verification failed") || words.contains("the certificate is not valid for this host name")
    }

    /// The first check `certificate` fails for `host`, in that order: its dates, its names, its issuer.
    public static func explain(_ certificate: Certificate, host: String, trust: ServerTrust, now: Date) -> String {
        let day = { (date: Date) in String(JSONOutput.timestamp(date).prefix(10)) }
        if now > certificate.notValidAfter {
            return "the certificate expired on \(day(certificate.notValidAfter)) (valid from \(day(certificate.notValidBefore)))"
        }
        if now < certificate.notValidBefore {
            return "the certificate is not valid before \(day(certificate.notValidBefore))"
        }
        let names = Self.names(of: certificate)
        if !names.isEmpty, !matches(host: host, names: names) {
            let shown = names.prefix(8).map { TerminalSanitizer.sanitize(String($0.prefix(100)), keepNewlines: false) }.joined(separator: ", ")
            return "the certificate is for other names: \(shown) (not \(host))"
        }
        let subject = TerminalSanitizer.sanitize(String(String(describing: certificate.subject).prefix(200)), keepNewlines: false)
        let issuer = TerminalSanitizer.sanitize(String(String(describing: certificate.issuer).prefix(200)), keepNewlines: false)
        let trusted = trust.caFile.map { "the certificates in \($0) (--cacert)" } ?? "the system's trust store"
        if certificate.issuer == certificate.subject {
            return "the certificate is self-signed (\(subject)), and not in \(trusted)"
        }
        return "the certificate's issuer (\(issuer)) is not in \(trusted)"
    }

    /// The DNS names and IP addresses of the certificate's subjectAltName, as text.
    static func names(of certificate: Certificate) -> [String] {
        guard let alternatives = try? certificate.extensions.subjectAlternativeNames else { return [] }
        return alternatives.compactMap { name -> String? in
            switch name {
            case .dnsName(let dns): return dns.lowercased()
            case .ipAddress(let octets):
                let bytes = Array(octets.bytes)
                guard bytes.count == 4 || bytes.count == 16,
                    let address = try? SocketAddress(packedIPAddress: ByteBuffer(bytes: bytes), port: 0)
                else { return nil }
                return address.ipAddress
            default: return nil
            }
        }
    }

    /// RFC 6125's matching, as TLS clients do it: an IP literal against the addresses, a name
    /// against the names, a leading `*.` standing for exactly one label.
    static func matches(host: String, names: [String]) -> Bool {
        let host = AddressBytes.unbracketed(host.lowercased())
        if let bytes = AddressBytes.parse(host) {
            return names.contains { AddressBytes.parse($0) == bytes }
        }
        return names.contains { name in
            if name == host { return true }
            guard name.hasPrefix("*."), let dot = host.firstIndex(of: ".") else { return false }
            return host[host.index(after: dot)...] == name.dropFirst(2) && !host[..<dot].isEmpty
        }
    }
}
