import Foundation
import Subprocess

#if canImport(System)
import System
#else
import SystemPackage
#endif

/// `openssl s_server` with a fresh self-signed certificate (CN conn-test) on a loopback port, for
/// the length of a test. `-www` answers HTTP GETs with a status page.
public enum TLSServer {
    public static func with<Result: Sendable>(home: TemporaryDirectory, _ body: (Int) async throws -> Result) async throws -> Result {
        let key = home.path + "/tls-key.pem", certificate = home.path + "/tls-cert.pem"
        let made = try await Subprocess.run(
            .name("openssl"),
            arguments: ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate,
                        "-subj", "/CN=conn-test", "-days", "1"],
            output: .discarded, error: .discarded)
        guard made.terminationStatus.isSuccess else { throw ServerProcess.StartFailure(description: "openssl req failed") }
        return try await with(certificate: certificate, key: key, body)
    }

    /// The same with a certificate and key of the test's own (`TestCertificates`).
    public static func with<Result: Sendable>(certificate: String, key: String, _ body: (Int) async throws -> Result) async throws -> Result {
        // Below the automatic range: while openssl starts, a port-0 bind elsewhere in the run
        // could take a port that was only free (seen: a plain-HTTP server answering here).
        let port = try HTTPPorts.outsideAutomaticRange()
        let outcome = try await Subprocess.run(
            .name("openssl"),
            arguments: ["s_server", "-accept", "127.0.0.1:\(port)", "-cert", certificate, "-key", key, "-www", "-quiet"],
            input: .none, output: .discarded, error: .discarded
        ) { execution in
            let ready = try await LoopbackListener.waitUntilAccepting(port: port)
            defer { try? execution.send(signal: .terminate) }
            guard ready else { throw ServerProcess.StartFailure(description: "openssl s_server did not start") }
            return try await body(port)
        }
        return outcome.closureResult
    }
}
