import ConnTestSupport
import Foundation
import Testing

/// A back end signed by a CA of its own (a company's, a staging one): trusted with `--cacert FILE`
/// or `caCert`, as curl's `--cacert`; refused without, saying which check failed — the issuer,
/// the dates, the names — as curl and openssl do. Served by `openssl s_server` on loopback.
@Suite("a private CA: --cacert and caCert")
struct PrivateCATests {
    let home: TemporaryDirectory

    init() throws { home = try TemporaryDirectory() }

    func result(_ outcome: ProcessOutcome) throws -> [String: Any] {
        try #require((try outcome.json()["results"] as? [[String: Any]])?.first, "\(outcome.standardOutput) \(outcome.standardError)")
    }

    func errorCode(_ outcome: ProcessOutcome) -> String? {
        ((try? JSONSerialization.jsonObject(with: Data(outcome.standardError.utf8))) as? [String: Any])
            .flatMap { $0["error"] as? [String: Any] }?["code"] as? String
    }

    @Test("signed by the test CA: refused without it (the issuer named), reachable with --cacert or CONN_CA_CERT, by address and by name; the HTTP client and the json clock take it too; expired → the date; another name → the names it holds; a file that is not PEM is 64 or 78")
    func privateCA() async throws {
        let certificates = try await TestCertificates(in: home)
        try await TLSServer.with(certificate: certificates.good, key: certificates.key) { port in
            let url = "https://127.0.0.1:\(port)/"
            let refused = try await home.conn(["probe", "--json", url])
            let why = try result(refused)["explanation"] as? String ?? ""
            #expect(try refused.exitCode == 69 && result(refused)["verdict"] as? String == "tlsError", "\(refused.standardOutput)")
            #expect(why.contains("issuer") && why.contains("conn-test-ca") && why.contains("the system's trust store"), "\(why)")

            let trusted = try await home.conn(["probe", "--json", "--cacert", certificates.caFile, url])
            #expect(trusted.exitCode == 0, "\(trusted.standardOutput) \(trusted.standardError)")
            let tls = (try result(trusted)["rungs"] as? [[String: Any]])?.first { $0["name"] as? String == "tls" }
            let tlsDetail = tls?["detail"] as? String ?? ""
            #expect(tlsDetail.contains("against \(certificates.caFile)"), "\(String(describing: tls))")
            let byName = try await home.conn(["probe", "https://localhost:\(port)/"], env: ["CONN_CA_CERT": certificates.caFile])
            #expect(byName.exitCode == 0, "\(byName.standardOutput) \(byName.standardError)")
            let shown = try await home.conn(["config", "show"], env: ["CONN_CA_CERT": certificates.caFile])
            #expect(shown.standardOutput.contains("caCert") && shown.standardOutput.contains(certificates.caFile), "\(shown.standardOutput)")

            // The HTTP client (inbox fetch) and the json clock's own connection: TLS passes with
            // the CA (s_server then answers HTML: not an inbox, not a time), fails without it.
            let server = URL(string: "https://127.0.0.1:\(port)")!
            for arguments in [["inbox", "fetch", "--json"], ["clock-offset", "--json", "--method", "json", "--samples", "1"],
                              ["clock-offset", "--json", "--method", "ws", "--samples", "1"]] {
                let without = try await home.conn(arguments, server: server)
                #expect(without.exitCode == 69 && errorCode(without) == "tlsError", "\(arguments): \(without.standardError)")
                do {
                    // The HTTP client and the json clock say which check failed too, and what to do.
                    #expect(without.standardError.contains("issuer") && without.standardError.contains("conn-test-ca")
                            && without.standardError.contains("--cacert"), "\(without.standardError)")
                }
                let with = try await home.conn(arguments + ["--cacert", certificates.caFile], server: server)
                // Past TLS: what fails then is the answer (not an inbox, not a time, no upgrade).
                #expect(with.exitCode != 0 && errorCode(with) != "tlsError" && errorCode(with) != nil, "\(arguments): \(with.standardError)")
            }
        }
        try await TLSServer.with(certificate: certificates.expired, key: certificates.key) { port in
            let expired = try await home.conn(["probe", "--json", "--cacert", certificates.caFile, "https://127.0.0.1:\(port)/"])
            let why = try result(expired)["explanation"] as? String ?? ""
            #expect(expired.exitCode == 69 && why.contains("expired on 2020-01-02"), "\(why)")
        }
        try await TLSServer.with(certificate: certificates.otherName, key: certificates.key) { port in
            let other = try await home.conn(["probe", "--json", "--cacert", certificates.caFile, "https://127.0.0.1:\(port)/"])
            let why = try result(other)["explanation"] as? String ?? ""
            #expect(other.exitCode == 69 && why.contains("for other names: other.conn.test (not 127.0.0.1)"), "\(why)")
        }
        let notPEM = try home.write("not-a-ca.pem", "hello\n")
        let option = try await home.conn(["probe", "--cacert", notPEM, "https://127.0.0.1:1/"])
        #expect(option.exitCode == 64 && option.standardError.contains("--cacert") && option.standardError.contains(notPEM), "\(option.standardError)")
        let setting = try await home.conn(["probe", "https://127.0.0.1:1/"], env: ["CONN_CA_CERT": notPEM])
        #expect(setting.exitCode == 78 && setting.standardError.contains("caCert"), "\(setting.standardError)")
    }
}
