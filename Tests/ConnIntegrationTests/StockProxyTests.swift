import ConnTestSupport
import Foundation
import Testing

/// Proxies as they come: Debian's squid with its stock access rules (CONNECT to 443 only), and
/// tinyproxy, dante and microsocks in front of a target that is not there. An http:// back end
/// goes through an HTTP proxy in absolute form, as curl sends it; what the proxy says about the
/// target is the target's verdict, not the proxy's.
@Suite("proxies as they come: stock squid, a dead target behind each kind")
struct StockProxyTests {
    let home: TemporaryDirectory

    init() throws { home = try TemporaryDirectory() }

    /// The rung names and the result of a probe's one target.
    private func probeResult(_ outcome: ProcessOutcome) throws -> (result: [String: Any], rungs: [String]) {
        let result = try #require((try outcome.json()["results"] as? [[String: Any]])?.first, "\(outcome.standardOutput) \(outcome.standardError)")
        return (result, (result["rungs"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String })
    }

    @Test("an http:// back end on a high port through Debian's stock squid: curl gets its 204, and so do probe, inbox fetch, send, outbox flush, clock-offset (json, http-date) — each a request in absolute form in squid's log, no CONNECT; an https:// one on that port is squid's rule (proxyRefused, ERR_ACCESS_DENIED)")
    func stockSquidCarriesPlainHTTP() async throws {
        try await ServerProcess.with(["--generate", "3"]) { url in
            let squid = try await RealProxy.stockSquid(in: home)
            let via = "http://127.0.0.1:\(squid.port)"
            let health = "\(url.absoluteString)/health"
            // The oracle: curl through the same proxy.
            let curl = try await ConnProcess.run("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-x", via, health],
                                                 environment: ["PATH": "/usr/bin:/bin"])
            #expect(curl.standardOutput == "204", "\(curl.standardOutput) \(curl.standardError)")

            let probed = try await home.conn(["probe", "--json", "--proxy", via, health])
            let (result, rungs) = try probeResult(probed)
            #expect(probed.exitCode == 0 && result["verdict"] as? String == "reachable" && result["httpStatus"] as? Int == 204, "\(result)")
            #expect(rungs == ["dns", "route", "tcp", "proxy", "http"], "\(rungs)")
            let proxyRung = (result["rungs"] as? [[String: Any]] ?? []).first { $0["name"] as? String == "proxy" }
            let proxyDetail = proxyRung?["detail"] as? String ?? ""
            #expect(proxyDetail.contains("absolute form"), "\(String(describing: proxyRung))")
            let problems = try await JSONSchemaCheck.violations(of: probed.standardOutput, schema: "probe")
            #expect(problems.isEmpty, "\(problems)")

            let fetched = try await home.conn(["inbox", "fetch", "--json", "--proxy", via], server: url)
            #expect(try fetched.exitCode == 0 && fetched.json()["new"] as? Int == 3, "\(fetched.standardOutput) \(fetched.standardError)")
            let sent = try await home.conn(["send", "--json", "--proxy", via, "--to", "ann@conn.example", "--subject", "through squid", "--text", "t"], server: url)
            #expect(try sent.exitCode == 0 && sent.json()["state"] as? String == "sent", "\(sent.standardOutput) \(sent.standardError)")
            // Queued while the proxy says no (a port nothing listens on), then flushed through squid.
            let queued = try await home.conn(["send", "--json", "--proxy", "http://127.0.0.1:\(try HTTPPorts.closed())", "--to", "ann@conn.example",
                                              "--subject", "later", "--text", "t"], server: url)
            #expect(try queued.exitCode == 0 && queued.json()["state"] as? String == "pending", "\(queued.standardOutput) \(queued.standardError)")
            let flushed = try await home.conn(["outbox", "flush", "--json", "--proxy", via], server: url)
            #expect(try flushed.exitCode == 0 && flushed.json()["sent"] as? Int == 1, "\(flushed.standardOutput) \(flushed.standardError)")
            for method in ["json", "http-date"] {
                let offset = try await home.conn(["clock-offset", "--json", "--method", method, "--samples", "3", "--proxy", via], server: url)
                #expect(offset.exitCode == 0, "\(method): \(offset.standardError)")
            }
            let log = squid.log
            let port = url.port!
            for path in ["/health", "/inbox", "/messages", "/time"] {
                #expect(log.contains("http://127.0.0.1:\(port)\(path)"), "\(path) not in squid's log: \(log)")
            }
            #expect(!log.contains("CONNECT"), "\(log)")

            // CONNECT to a port other than 443: the stock rule refuses it, and that is the proxy's word.
            let tunnel = try await home.conn(["probe", "--json", "--proxy", via, "https://127.0.0.1:\(port)/health"])
            let (refused, _) = try probeResult(tunnel)
            #expect(tunnel.exitCode == 69 && refused["verdict"] as? String == "proxyRefused"
                    && (refused["explanation"] as? String ?? "").contains("ERR_ACCESS_DENIED"), "\(refused)")
            await squid.stop()
        }
    }

    @Test("a dead target behind each kind of proxy is the target's failure: stock squid (503 ERR_CONNECT_FAIL 111 → refused), tinyproxy (500 Unable to connect → unreachable), microsocks and dante (SOCKS5 reply 5 → refused); on probe and inbox fetch, http:// and https://, saying which proxy said it")
    func deadTargetBehindEachProxy() async throws {
        let dead = try HTTPPorts.closed()
        let squid = try await RealProxy.stockSquid(in: home)
        let tinyproxy = try await RealProxy.tinyproxy(in: home)
        let microsocks = try await RealProxy.microsocks()
        let dante = try await RealProxy.dante(in: home, blockedPort: 9)
        // (proxy URL, scheme of the target, the verdict, what the explanation quotes)
        let cases: [(String, String, String, String)] = [
            ("http://127.0.0.1:\(squid.port)", "http", "refused", "ERR_CONNECT_FAIL 111"),
            ("http://127.0.0.1:\(tinyproxy.port)", "http", "unreachable", "tinyproxy"),
            ("http://127.0.0.1:\(tinyproxy.port)", "https", "unreachable", "Unable to connect"),
            ("socks5h://127.0.0.1:\(microsocks.port)", "http", "refused", "SOCKS5 reply 5"),
            ("socks5h://127.0.0.1:\(dante.port)", "https", "refused", "SOCKS5 reply 5"),
        ]
        for (proxy, scheme, verdict, quoted) in cases {
            let target = "\(scheme)://127.0.0.1:\(dead)/health"
            let probed = try await home.conn(["probe", "--json", "--proxy", proxy, target])
            let (result, _) = try probeResult(probed)
            let explanation = result["explanation"] as? String ?? ""
            #expect(probed.exitCode == 69 && result["verdict"] as? String == verdict, "\(proxy) \(scheme): \(result)")
            #expect(explanation.contains("said the proxy \(proxy)") && explanation.contains(quoted), "\(proxy) \(scheme): \(explanation)")
            #expect(result["httpStatus"] is NSNull, "the proxy's status is not the target's: \(result)")

            let server = URL(string: "\(scheme)://127.0.0.1:\(dead)")!
            let fetched = try await home.conn(["inbox", "fetch", "--json", "--proxy", proxy], server: server)
            let error = (try JSONSerialization.jsonObject(with: Data(fetched.standardError.utf8)) as? [String: Any])?["error"] as? [String: Any]
            #expect(fetched.exitCode == 69 && error?["code"] as? String == verdict, "\(proxy) \(scheme): \(fetched.standardError)")
            #expect(!fetched.standardError.contains("HTTPClientError") && fetched.standardError.contains(quoted), "\(fetched.standardError)")
        }
        for proxy in [squid, tinyproxy, microsocks, dante] { await proxy.stop() }
    }

    @Test("a proxy's 407 is 77 on every HTTP path, a Proxy-Authenticate with control characters too (shown sanitised); send pauses the outbox on it, and new proxy credentials lift the pause")
    func proxyAuthenticationEverywhere() async throws {
        let realm = "Basic realm=\"\u{1B}]0;EVIL\u{07}x\""
        try await BadServer.with([BadServer.Route(path: "*", status: 407, headers: [["Proxy-Authenticate", realm]], body: "")]) { hostile in
            let via = "http://127.0.0.1:\(hostile.url.port!)"
            let server = URL(string: "http://127.0.0.1:\(try HTTPPorts.closed())")!
            for arguments in [["inbox", "fetch"], ["clock-offset", "--method", "http-date"], ["clock-offset", "--method", "json"],
                              ["login", "--email", "ann@conn.example", "--password-stdin"]] {
                let outcome = try await home.conn(arguments + ["--proxy", via], server: server, input: "pw\n")
                #expect(outcome.exitCode == 77, "\(arguments): \(outcome.exitCode) \(outcome.standardError)")
                #expect(outcome.standardError.contains("wants credentials (407") && !outcome.standardError.contains("\u{1B}")
                        && !outcome.standardError.contains("\u{07}"), "\(arguments): \(outcome.standardError)")
            }
            let sent = try await home.conn(["send", "--proxy", via, "--to", "ann@conn.example", "--subject", "s", "--text", "t"], server: server)
            #expect(sent.exitCode == 77 && sent.standardError.contains("proxy's user and password"), "\(sent.standardError)")
        }
        // tinyproxy's own 407: the outbox pauses (one attempt, not a retry loop), stays paused with
        // the same credentials, and the right ones lift the pause: the message goes.
        let fresh = try TemporaryDirectory()  // the pause above is this home's
        try await ServerProcess.with { url in
            let proxy = try await RealProxy.tinyproxy(in: fresh, user: "ann", password: "pw-of-ann")
            let without = "http://127.0.0.1:\(proxy.port)"
            let sent = try await fresh.conn(["send", "--proxy", without, "--to", "ann@conn.example", "--subject", "paused", "--text", "t"], server: url)
            #expect(sent.exitCode == 77 && sent.standardError.contains("proxy's user and password"), "\(sent.standardError)")
            let listed = try await fresh.conn(["outbox", "list", "--proxy", without], server: url)
            #expect(listed.standardOutput.contains("paused") && listed.standardOutput.contains("the proxy wants credentials"), "\(listed.standardOutput)")
            let again = try await fresh.conn(["outbox", "flush", "--proxy", without], server: url)
            #expect(again.exitCode == 77 && again.standardError.contains("the queue is paused"), "\(again.standardError)")
            let flushed = try await fresh.conn(["outbox", "flush", "--json", "--proxy", "http://ann:pw-of-ann@127.0.0.1:\(proxy.port)"], server: url)
            #expect(try flushed.exitCode == 0 && flushed.json()["sent"] as? Int == 1, "\(flushed.standardOutput) \(flushed.standardError)")
            await proxy.stop()
        }
    }
}
