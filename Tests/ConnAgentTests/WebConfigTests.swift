import ConnTestSupport
import Foundation
import Testing

/// --web-config-file: TLS and basic authentication on the metrics listener, in the Prometheus
/// exporter toolkit's format, as a real Prometheus scrapes through them.
@Suite("--web-config-file")
struct WebConfigTests {
    let home: TemporaryDirectory

    init() throws { home = try TemporaryDirectory() }

    /// bcrypt (cost 4) of "s3cret", made by libxcrypt.
    static let hash = "$2b$04$v67izzZ/rIrz8MMYY8V1HuEh1bRFN2dAPqifYK1DzmNGjkdgkdYFS"

    /// A self-signed certificate for 127.0.0.1 and the web configuration naming it, with user
    /// prom (password s3cret); returns the configuration's path.
    func webConfig() async throws -> String {
        let made = try await ConnProcess.run("/usr/bin/openssl", [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", home.path + "/server.key", "-out", home.path + "/server.crt",
            "-days", "2", "-subj", "/CN=conn-test", "-addext", "subjectAltName=IP:127.0.0.1",
        ], environment: ["PATH": "/usr/bin:/bin"])
        #expect(made.exitCode == 0, "\(made.standardError)")
        // Relative paths: from the configuration's own directory, as the exporter toolkit reads them.
        return try home.write("web.yml", """
            tls_server_config:
              cert_file: server.crt
              key_file: server.key
            basic_auth_users:
              prom: "\(Self.hash)"
            """)
    }

    func curl(_ arguments: [String]) async throws -> (status: Int, headers: String) {
        let outcome = try await ConnProcess.run("/usr/bin/env", ["curl", "-s", "-D", "-", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", home.path + "/server.crt"] + arguments,
                                                environment: ProcessInfo.processInfo.environment)
        // Headers end in CRLF, one Character to Swift: split on every kind of line end.
        let lines = outcome.standardOutput.split(whereSeparator: \.isNewline)
        return (Int(lines.last ?? "") ?? 0, outcome.standardOutput + outcome.standardError)
    }

    @Test("TLS and basic auth: 401 with WWW-Authenticate without a user or with a wrong password, 200 with the right one; a real Prometheus scrapes through both",
          .enabled(if: PrometheusTools.hasPrometheus, "prometheus is not installed (Debian package prometheus)"))
    func tlsAndBasicAuth() async throws {
        let config = try await webConfig()
        try await ServerProcess.with { url in
            let agent = try JSONLinesProcess(ConnProcess.connPath, ["agent", "--json", "--no-internet", "--interval", "1s",
                                                                    "--metrics-listen", "0", "--web-config-file", config],
                                             environment: home.environment.merging(["CONN_SERVER": url.absoluteString]) { $1 })
            var port: Int?
            for _ in 0..<200 where port == nil {
                port = agent.errorOutput.firstMatch(of: /metrics: https:\/\/127\.0\.0\.1:(\d+)\/metrics \(basic authentication\)/).flatMap { Int($0.1) }
                if port == nil { try await Task.sleep(for: .milliseconds(50)) }
            }
            let metricsPort = try #require(port, "\(agent.errorOutput)")
            let base = "https://127.0.0.1:\(metricsPort)"
            let anonymous = try await curl([base + "/metrics"])
            #expect(anonymous.status == 401 && anonymous.headers.lowercased().contains("www-authenticate: basic"), "\(anonymous)")
            #expect(try await curl(["-u", "prom:wrong", base + "/metrics"]).status == 401)
            #expect(try await curl(["-u", "nobody:s3cret", base + "/metrics"]).status == 401)
            #expect(try await curl(["-u", "prom:s3cret", base + "/metrics"]).status == 200)
            // Plain HTTP to a TLS listener is no way in: no HTTP answer at all (curl's 000).
            #expect(try await curl(["-u", "prom:s3cret", "http://127.0.0.1:\(metricsPort)/metrics"]).status == 0)

            let prometheus = try RealPrometheus(configuration: """
                global:
                  scrape_interval: 1s
                scrape_configs:
                  - job_name: conn
                    scheme: https
                    tls_config:
                      ca_file: \(home.path)/server.crt
                    basic_auth:
                      username: prom
                      password: s3cret
                    static_configs:
                      - targets: ['127.0.0.1:\(metricsPort)']
                  - job_name: conn-no-password
                    scheme: https
                    tls_config:
                      ca_file: \(home.path)/server.crt
                    static_configs:
                      - targets: ['127.0.0.1:\(metricsPort)']
                """, in: home)
            defer { prometheus.stop() }
            #expect(try await prometheus.until(#"up{job="conn"}"#, is: 1), "\(agent.errorOutput)")
            #expect(try await prometheus.until(#"conn_connectivity_state{job="conn",state="online"}"#, is: 1))
            #expect(try await prometheus.until(#"up{job="conn-no-password"}"#, is: 0))
            #expect(await agent.stop() == 0)
        }
    }

    @Test("a web configuration that asks for what conn does not do, or is not one, is refused with 78 naming the key; without --metrics-listen, 64")
    func refusals() async throws {
        let closed = URL(string: "http://127.0.0.1:\(try HTTPPorts.closed())")!
        let cases: [(text: String, says: String)] = [
            ("basic_auth_users:\n  prom: plaintext\n", "is not a bcrypt hash"),
            ("http_server_config:\n  http2: false\n", "'http_server_config' is not supported"),
            ("tls_server_config:\n  cert_file: a.crt\n  key_file: a.key\n  client_auth_type: RequireAndVerifyClientCert\n", "client_auth_type is not supported"),
            ("tls_server_config:\n  cert_file: missing.crt\n  key_file: missing.key\n", "is not a PEM certificate"),
            ("tls_server_config:\n  cert_file: only.crt\n", "needs cert_file and key_file"),
            ("- a list\n", "not a mapping"),
        ]
        for (index, item) in cases.enumerated() {
            let file = try home.write("bad\(index).yml", item.text)
            let refused = try await home.conn(["agent", "--no-internet", "--metrics-listen", "0", "--web-config-file", file], server: closed)
            #expect(refused.exitCode == 78 && refused.standardError.contains(item.says) && refused.standardError.contains(file),
                    "\(item.text): \(refused.exitCode) \(refused.standardError)")
        }
        let alone = try await home.conn(["agent", "--no-internet", "--web-config-file", home.path + "/bad0.yml"], server: closed)
        #expect(alone.exitCode == 64 && alone.standardError.contains("--metrics-listen"), "\(alone.standardError)")
    }
}
