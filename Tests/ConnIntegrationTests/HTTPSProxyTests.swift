import ConnTestSupport
import Foundation
import Testing

/// An https:// proxy — TLS to the proxy itself, as squid's https_port serves it — on every path:
/// the probe's ladder (its own proxyTls rung, then the tunnel, then the target's TLS nested inside),
/// the HTTP client (inbox fetch, send: through conn's relay), clock-offset and watch's link. The
/// proxy's certificate is checked against --proxy-cacert (or the system's store), apart from the
/// server's.
@Suite("proxies: https:// (TLS to the proxy)", .enabled(if: RealProxy.hasSquid, "squid is not installed (scripts/install-deps)"))
struct HTTPSProxyTests {
    let home: TemporaryDirectory

    init() throws { home = try TemporaryDirectory() }

    func rungs(_ outcome: ProcessOutcome) throws -> [[String: Any]] {
        let result = try #require((try outcome.json()["results"] as? [[String: Any]])?.first, "\(outcome.standardOutput) \(outcome.standardError)")
        return result["rungs"] as? [[String: Any]] ?? []
    }

    @Test("probe: proxyTls (certificate verified against --proxy-cacert, the proxy's subject), proxy, http; an https target's certificate is the target's, not the proxy's; without the CA → proxyUnreachable naming the certificate; --proxy-insecure → reachable, said NOT verified")
    func probeThroughAnHTTPSProxy() async throws {
        try await ServerProcess.with { url in
            let squid = try await RealProxy.squid(in: home, user: "alice", password: "pw-of-alice", tls: true)
            let caFile = try #require(squid.caFile)
            let proxy = "https://alice:pw-of-alice@127.0.0.1:\(squid.port)"
            let health = "\(url.absoluteString)/health"

            let probed = try await home.conn(["probe", "--json", "--proxy", proxy, "--proxy-cacert", caFile, health])
            let ladder = try rungs(probed)
            #expect(probed.exitCode == 0 && ladder.compactMap { $0["name"] as? String } == ["dns", "route", "tcp", "proxyTls", "proxy", "http"],
                    "\(probed.standardOutput) \(probed.standardError)")
            let proxyTls = ladder.first { $0["name"] as? String == "proxyTls" }
            let detail = proxyTls?["detail"] as? String ?? ""
            #expect(proxyTls?["ok"] as? Bool == true && detail.contains("certificate verified") && detail.contains("conn-test-proxy"), "\(ladder)")
            #expect(!probed.standardOutput.contains("pw-of-alice") && !probed.standardError.contains("pw-of-alice"))

            // An https target inside the tunnel: two TLS sessions on one connection, each its own certificate.
            try await TLSServer.with(home: home) { port in
                let nested = try await home.conn(["probe", "--json", "--insecure", "--proxy", proxy, "--proxy-cacert", caFile, "https://127.0.0.1:\(port)/"])
                let result = try #require((try nested.json()["results"] as? [[String: Any]])?.first, "\(nested.standardOutput)")
                let names = (result["rungs"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
                #expect(nested.exitCode == 0 && names == ["dns", "route", "tcp", "proxyTls", "proxy", "tls", "http"], "\(nested.standardOutput) \(nested.standardError)")
                let certificate = result["certificate"] as? [String: Any]
                #expect(certificate?["commonName"] as? String == "conn-test", "the target's certificate, not the proxy's: \(result)")
            }

            // The system's trust store does not know the proxy's self-signed certificate.
            let untrusted = try await home.conn(["probe", "--json", "--proxy", proxy, health])
            let failed = try rungs(untrusted).last
            #expect(try untrusted.exitCode == 69 && (untrusted.json()["reason"] as? String) == "proxyUnreachable", "\(untrusted.standardOutput)")
            #expect(failed?["name"] as? String == "proxyTls" && (failed?["detail"] as? String ?? "").contains("certificate verification failed"), "\(untrusted.standardOutput)")
            let text = try await home.conn(["probe", "--proxy", proxy, health])
            #expect(text.exitCode == 69 && text.standardOutput.contains("proxyUnreachable — TLS to the proxy https://alice@127.0.0.1:\(squid.port)"),
                    "\(text.standardOutput)")
            let verbose = try await home.conn(["probe", "-v", "--proxy", proxy, health])
            #expect(verbose.standardOutput.contains("proxyTls FAIL"), "\(verbose.standardOutput)")

            let insecure = try await home.conn(["probe", "--json", "--proxy", proxy, "--proxy-insecure", health])
            let unchecked = try rungs(insecure).first { $0["name"] as? String == "proxyTls" }
            #expect(insecure.exitCode == 0 && (unchecked?["detail"] as? String ?? "").contains("NOT verified (--proxy-insecure)"), "\(insecure.standardOutput)")
            // Every request squid forwarded was alice's, over its https_port (http:// in absolute form).
            #expect(squid.log.contains("GET http://127.0.0.1:\(url.port!)/health alice"), "\(squid.log)")
            await squid.stop()
        }
    }

    @Test("the HTTP client's paths through it (conn's relay): inbox fetch, send and clock-offset with proxyCaCert from the config; an untrusted proxy → 69 proxyUnreachable naming its certificate; squid's log has alice's CONNECTs; config show says what the proxy's certificate is checked against")
    func clientPathsThroughAnHTTPSProxy() async throws {
        try await ServerProcess.with(["--generate", "2"]) { url in
            let squid = try await RealProxy.squid(in: home, user: "alice", password: "pw-of-alice", tls: true)
            let caFile = try #require(squid.caFile)
            let proxy = "https://alice:pw-of-alice@127.0.0.1:\(squid.port)"
            let trusted = ["HTTPS_PROXY": proxy, "HTTP_PROXY": proxy, "CONN_PROXY_CA_CERT": caFile]

            let fetched = try await home.conn(["inbox", "fetch", "--json", "-v"], server: url, env: trusted)
            #expect(try fetched.exitCode == 0 && (fetched.json()["new"] as? Int) == 2, "\(fetched.standardOutput) \(fetched.standardError)")
            #expect(!fetched.standardError.contains("pw-of-alice"), "\(fetched.standardError)")
            let sent = try await home.conn(["send", "--to", "ann@conn.example", "--subject", "through TLS to the proxy", "--text", "t", "--json"],
                                           server: url, env: trusted)
            #expect(try sent.exitCode == 0 && (sent.json()["state"] as? String) == "sent", "\(sent.standardOutput) \(sent.standardError)")
            for method in ["json", "http-date"] {
                let offset = try await home.conn(["clock-offset", "--json", "--method", method, "--samples", "2"], server: url, env: trusted)
                #expect(offset.exitCode == 0, "\(method): \(offset.standardError)")
            }
            let forwarded = squid.log.split(separator: "\n").filter { $0.contains("http://127.0.0.1:\(url.port!)/") && $0.contains(" alice ") }
            #expect(forwarded.count >= 4, "\(squid.log)")

            let shown = try await home.conn(["config", "show", "--json"], server: url, env: trusted)
            let report = try #require(try shown.json()["proxy"] as? [String: Any], "\(shown.standardOutput)")
            #expect(report["url"] as? String == "https://alice@127.0.0.1:\(squid.port)" && (report["trust"] as? String ?? "").contains(caFile), "\(report)")

            let untrusted = try await home.conn(["inbox", "fetch", "--json"], server: url, env: ["HTTP_PROXY": proxy])
            #expect(untrusted.exitCode == 69 && untrusted.standardError.contains(#""code":"proxyUnreachable""#)
                    && untrusted.standardError.contains("certificate verification failed"), "\(untrusted.standardError)")
            await squid.stop()
        }
    }

    @Test("watch's look and its live link through it: online and connected; a proxy CA file that is not one → 64 (--proxy-cacert) or 78 (proxyCaCert) naming the file")
    func watchThroughAnHTTPSProxy() async throws {
        try await ServerProcess.with { url in
            let squid = try await RealProxy.squid(in: home, user: "alice", password: "pw-of-alice", tls: true)
            let caFile = try #require(squid.caFile)
            let proxy = "https://alice:pw-of-alice@127.0.0.1:\(squid.port)"
            // The look and the link race each other: wait for both, in any order.
            let watch = try JSONLinesProcess(ConnProcess.connPath, ["watch", "--json", "--no-internet", "--interval", "1h",
                                                                    "--proxy", proxy, "--proxy-cacert", caFile],
                                             environment: home.environment.merging(["CONN_SERVER": url.absoluteString]) { $1 })
            let online = try await watch.await { $0["state"] as? String == "online" }
            let connected = try await watch.await { ($0["connectionState"] as? [String: Any])?["status"] as? String == "connected" }
            #expect(online != nil && connected != nil, "\(watch.events) \(watch.errorOutput)")
            #expect(await watch.stop() == 143)
            // The look went through it, forwarded (absolute form) under alice; the link tunnelled.
            #expect(squid.log.contains("GET http://127.0.0.1:\(url.port!)/health alice"), "\(squid.log)")
            // squid logs a tunnel when it ends, which the watch's end has set going.
            let tunnelled = await poll(for: 20, every: .milliseconds(50)) { squid.log.contains("CONNECT 127.0.0.1:\(url.port!) alice") ? true : nil }
            #expect(tunnelled == true, "the link went around the proxy: \(squid.log)")
            await squid.stop()

            let notPEM = try home.write("not-a-certificate.pem", "hello\n")
            let option = try await home.conn(["probe", "--proxy", proxy, "--proxy-cacert", notPEM, "\(url.absoluteString)/health"])
            #expect(option.exitCode == 64 && option.standardError.contains("--proxy-cacert") && option.standardError.contains(notPEM), "\(option.standardError)")
            let missing = home.path + "/no-such-file.pem"
            let setting = try await home.conn(["probe", "--proxy", proxy, "\(url.absoluteString)/health"], env: ["CONN_PROXY_CA_CERT": missing])
            #expect(setting.exitCode == 78 && setting.standardError.contains("proxyCaCert") && setting.standardError.contains(missing), "\(setting.standardError)")
        }
    }
}
