import ConnTestSupport
import Foundation
import Testing

/// Proxies as people set them, against real ones from Debian: tinyproxy and squid (HTTP CONNECT,
/// basic authentication), microsocks and dante (SOCKS5), with the real conn-server behind them.
@Suite("proxies: the HTTP client's paths", .enabled(if: RealProxy.hasTinyproxy && RealProxy.hasMicrosocks,
                                                   "tinyproxy and microsocks are not installed (scripts/install-deps)"))
struct ProxyTests {
    let home: TemporaryDirectory

    init() throws { home = try TemporaryDirectory() }

    @Test("inbox fetch and send through tinyproxy (http_proxy): the proxy opened the tunnels; the proxy gone → 69 naming http_proxy; NO_PROXY lists the server → direct")
    func throughTinyproxy() async throws {
        try await ServerProcess.with(["--generate", "3"]) { url in
            let proxy = try await RealProxy.tinyproxy(in: home)
            let viaProxy = ["http_proxy": "http://127.0.0.1:\(proxy.port)"]
            let fetched = try await home.conn(["inbox", "fetch", "--json"], server: url, env: viaProxy)
            #expect(fetched.exitCode == 0, "\(fetched.standardError)")
            #expect(try fetched.json()["new"] as? Int == 3, "\(fetched.standardOutput)")
            let sent = try await home.conn(["send", "--to", "ann@conn.example", "--subject", "by proxy", "--text", "t", "--json"], server: url, env: viaProxy)
            let sentState = try sent.json()["state"] as? String
            #expect(sent.exitCode == 0 && sentState == "sent", "\(sent.standardOutput) \(sent.standardError)")
            // The proxy carried both, in absolute form (http:// is forwarded, not tunnelled): its log.
            #expect(proxy.log.contains("GET http://127.0.0.1:\(url.port!)/inbox") && proxy.log.contains("POST http://127.0.0.1:\(url.port!)/messages")
                    && !proxy.log.contains("CONNECT 127.0.0.1:\(url.port!)"), "\(proxy.log)")

            await proxy.stop()
            let refused = try await home.conn(["inbox", "fetch"], server: url, env: viaProxy)
            #expect(refused.exitCode == 69, "\(refused.standardError)")
            #expect(refused.standardError.contains("the proxy http://127.0.0.1:\(proxy.port) (from environment variable http_proxy) refused the connection"),
                    "\(refused.standardError)")
            let json = try await home.conn(["inbox", "fetch", "--json"], server: url, env: viaProxy)
            #expect(json.standardError.contains(#""code":"proxyUnreachable""#), "\(json.standardError)")
            let direct = try await home.conn(["inbox", "fetch"], server: url, env: viaProxy.merging(["NO_PROXY": "localhost,127.0.0.1"]) { $1 })
            #expect(direct.exitCode == 0, "\(direct.standardError)")
            // --proxy '' turns the variable off too.
            #expect(try await home.conn(["inbox", "fetch", "--proxy", ""], server: url, env: viaProxy).exitCode == 0)
        }
    }

    @Test("a proxy that wants credentials: without them 77 (proxyAuthRequired, 407); with user:password in the URL it carries the request; the password never printed")
    func proxyCredentials() async throws {
        try await ServerProcess.with(["--generate", "2"]) { url in
            let proxy = try await RealProxy.tinyproxy(in: home, user: "ann", password: "s3cr3t-pw")
            let without = try await home.conn(["inbox", "fetch", "--proxy", "http://127.0.0.1:\(proxy.port)"], server: url)
            #expect(without.exitCode == 77 && without.standardError.contains("wants credentials (407"), "\(without.exitCode) \(without.standardError)")
            let wrong = try await home.conn(["inbox", "fetch", "-v", "--proxy", "http://ann:wrong-pw@127.0.0.1:\(proxy.port)"], server: url)
            // tinyproxy answers wrong credentials with a 401 page of its own: its refusal of these (77).
            #expect(wrong.exitCode == 77 && wrong.standardError.contains("refused these") && !wrong.standardError.contains("wrong-pw"),
                    "\(wrong.standardError)")
            let with = try await home.conn(["inbox", "fetch", "-v", "--proxy", "http://ann:s3cr3t-pw@127.0.0.1:\(proxy.port)"], server: url)
            #expect(with.exitCode == 0, "\(with.standardError)")
            #expect(!with.standardError.contains("s3cr3t-pw") && with.standardError.contains("http://ann@127.0.0.1:\(proxy.port)"), "\(with.standardError)")
            await proxy.stop()
        }
    }

    @Test("SOCKS5 through microsocks (ALL_PROXY=socks5h://): fetch works; with a user and password: fetch and send with them, 77 without or with wrong ones, never printed; socks5:// resolves the name here; microsocks gone → 69 naming ALL_PROXY")
    func throughSOCKS() async throws {
        try await ServerProcess.with(["--generate", "2"]) { url in
            let proxy = try await RealProxy.microsocks()
            let viaSOCKS = ["ALL_PROXY": "socks5h://127.0.0.1:\(proxy.port)"]
            let fetched = try await home.conn(["inbox", "fetch", "--json"], server: url, env: viaSOCKS)
            let new = try fetched.json()["new"] as? Int
            #expect(fetched.exitCode == 0 && new == 2, "\(fetched.standardError)")
            await proxy.stop()
            let gone = try await home.conn(["inbox", "fetch"], server: url, env: viaSOCKS)
            #expect(gone.exitCode == 69 && gone.standardError.contains("environment variable ALL_PROXY"), "\(gone.standardError)")

            // RFC 1929 credentials on the HTTP client's paths (through conn's relay).
            let guarded = try await RealProxy.microsocks(user: "bob", password: "pw-of-bob")
            let good = "socks5://bob:pw-of-bob@127.0.0.1:\(guarded.port)"
            let withCredentials = try await home.conn(["inbox", "fetch", "--json", "-v", "--proxy", good], server: url)
            #expect(withCredentials.exitCode == 0 && !withCredentials.standardError.contains("pw-of-bob"), "\(withCredentials.standardError)")
            let sent = try await home.conn(["send", "--to", "ann@conn.example", "--subject", "by SOCKS", "--text", "t", "--json", "--proxy", good], server: url)
            #expect(try sent.exitCode == 0 && sent.json()["state"] as? String == "sent", "\(sent.standardOutput) \(sent.standardError)")
            // socks5:// resolves the server's name here: localhost.
            let byName = URL(string: url.absoluteString.replacingOccurrences(of: "127.0.0.1", with: "localhost"))!
            let resolvedHere = try await home.conn(["inbox", "fetch", "--proxy", good, "--noproxy", ""], server: byName)
            #expect(resolvedHere.exitCode == 0, "\(resolvedHere.standardError)")
            let without = try await home.conn(["inbox", "fetch", "--json", "--proxy", "socks5h://127.0.0.1:\(guarded.port)"], server: url)
            #expect(without.exitCode == 77 && without.standardError.contains(#""code":"proxyAuthRequired""#), "\(without.standardError)")
            let wrong = try await home.conn(["inbox", "fetch", "--proxy", "socks5h://bob:not-his@127.0.0.1:\(guarded.port)"], server: url)
            #expect(wrong.exitCode == 77 && wrong.standardError.contains("refused these") && !wrong.standardError.contains("not-his"), "\(wrong.standardError)")
            await guarded.stop()
        }
    }

    @Test("a proxy URL that is not one: 64 naming the variable, the option or the config key; config show says which proxy applies and why")
    func badProxiesAndConfigShow() async throws {
        let server = URL(string: "https://api.example.com")!
        for (env, arguments, words, status) in [(["HTTPS_PROXY": "gopher://p:70"], [String](), "environment variable HTTPS_PROXY", Int32(64)),
                                                ([:], ["--proxy", "http://p:99999"], "--proxy 'http://p:99999'", 64),
                                                (["https_proxy": "http://p :1"], [], "environment variable https_proxy", 64),
                                                (["CONN_PROXY": "socks4://p:1"], [], "proxy 'socks4://p:1' (from environment variable CONN_PROXY)", 78)] {
            let outcome = try await home.conn(["inbox", "fetch"] + arguments, server: server, env: env)
            #expect(outcome.exitCode == status && outcome.standardError.contains(words), "\(env) \(arguments): \(outcome.exitCode) \(outcome.standardError)")
        }
        let shown = try await home.conn(["config", "show", "--json"], server: server,
                                        env: ["HTTPS_PROXY": "http://ann:pw@proxy.example:3128", "NO_PROXY": ".internal"])
        let proxy = try #require(try shown.json()["proxy"] as? [String: Any], "\(shown.standardOutput)")
        #expect(proxy["url"] as? String == "http://ann@proxy.example:3128" && proxy["reason"] as? String == "from environment variable HTTPS_PROXY", "\(proxy)")
        #expect(!shown.standardOutput.contains("ann:pw"))
        let problems = try await JSONSchemaCheck.violations(of: shown.standardOutput, schema: "config-show")
        #expect(problems.isEmpty, "\(problems)")
        let excepted = try await home.conn(["config", "show"], server: server, env: ["HTTPS_PROXY": "proxy.example:3128", "NO_PROXY": "example.com"])
        #expect(excepted.standardOutput.contains("(none: direct)") && excepted.standardOutput.contains("NO_PROXY lists api.example.com"), "\(excepted.standardOutput)")
    }

    @Test("probe through tinyproxy: a proxy rung between TCP and HTTP; 407 → proxyAuthRequired, credentials → reachable; a denied port → proxyRefused; the proxy gone → proxyUnreachable, an https:// one too; the schema holds")
    func probeThroughAProxy() async throws {
        try await ServerProcess.with { url in
            let open = try await RealProxy.tinyproxy(in: home)
            let health = "\(url.absoluteString)/health"
            let through = try await home.conn(["probe", "--json", health], env: ["http_proxy": "http://127.0.0.1:\(open.port)"])
            let result = try #require((try through.json()["results"] as? [[String: Any]])?.first, "\(through.standardOutput)")
            #expect(through.exitCode == 0 && result["verdict"] as? String == "reachable", "\(through.standardOutput) \(through.standardError)")
            let rungs = (result["rungs"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            #expect(rungs == ["dns", "route", "tcp", "proxy", "http"], "\(rungs)")
            let problems = try await JSONSchemaCheck.violations(of: through.standardOutput, schema: "probe")
            #expect(problems.isEmpty, "\(problems)")
            #expect(open.log.contains("GET http://127.0.0.1:\(url.port!)/health"), "\(open.log)")

            let guarded = try await RealProxy.tinyproxy(in: home, user: "ann", password: "s3cr3t-pw")
            let asked = try await home.conn(["probe", "--json", "--proxy", "http://127.0.0.1:\(guarded.port)", health])
            #expect(try asked.json()["reason"] as? String == "proxyAuthRequired" && asked.exitCode == 69, "\(asked.standardOutput)")
            let given = try await home.conn(["probe", "--proxy", "http://ann:s3cr3t-pw@127.0.0.1:\(guarded.port)", health])
            #expect(given.exitCode == 0 && !given.standardOutput.contains("s3cr3t-pw"), "\(given.standardOutput)")

            // A proxy that lets CONNECT reach port 443 only: http:// is forwarded all the same, an
            // https:// target's tunnel is refused.
            let strict = try await RealProxy.tinyproxy(in: home, connectPorts: [443])
            let forwarded = try await home.conn(["probe", "--json", "--proxy", "http://127.0.0.1:\(strict.port)", health])
            #expect(forwarded.exitCode == 0, "\(forwarded.standardOutput)")
            let denied = try await home.conn(["probe", "--json", "--proxy", "http://127.0.0.1:\(strict.port)", "https://127.0.0.1:\(url.port!)/health"])
            #expect(try denied.json()["reason"] as? String == "proxyRefused", "\(denied.standardOutput)")

            await open.stop()
            let gone = try await home.conn(["probe", "--json", health], env: ["http_proxy": "http://127.0.0.1:\(open.port)"])
            #expect(try gone.json()["reason"] as? String == "proxyUnreachable" && gone.exitCode == 69, "\(gone.standardOutput)")
            // An https:// proxy where none listens: the proxy's failure (HTTPSProxyTests has a live one).
            let tlsProxy = try await home.conn(["probe", "--json", health], env: ["ALL_PROXY": "https://127.0.0.1:1"])
            #expect(try tlsProxy.exitCode == 69 && tlsProxy.json()["reason"] as? String == "proxyUnreachable", "\(tlsProxy.standardOutput)")
            await guarded.stop()
            await strict.stop()
        }
    }

    @Test("squid with basic_ncsa_auth: probe, inbox fetch and clock-offset through it with credentials; wrong ones → proxyAuthRequired saying they were refused (probe 69, fetch 77); squid's log has the CONNECTs under the user; a port it refuses → proxyRefused",
          .enabled(if: RealProxy.hasSquid, "squid is not installed (scripts/install-deps)"))
    func throughSquid() async throws {
        try await ServerProcess.with(["--generate", "2"]) { url in
            let squid = try await RealProxy.squid(in: home, user: "alice", password: "pw-of-alice")
            let good = "http://alice:pw-of-alice@127.0.0.1:\(squid.port)", bad = "http://alice:not-hers@127.0.0.1:\(squid.port)"
            let health = "\(url.absoluteString)/health"
            let probed = try await home.conn(["probe", "--json", "--proxy", good, health])
            let result = try #require((try probed.json()["results"] as? [[String: Any]])?.first, "\(probed.standardOutput)")
            let rungs = (result["rungs"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            #expect(probed.exitCode == 0 && rungs == ["dns", "route", "tcp", "proxy", "http"], "\(probed.standardOutput) \(probed.standardError)")
            let fetched = try await home.conn(["inbox", "fetch", "--json", "--proxy", good], server: url)
            #expect(try fetched.exitCode == 0 && (fetched.json()["new"] as? Int) == 2, "\(fetched.standardOutput) \(fetched.standardError)")
            let offset = try await home.conn(["clock-offset", "--method", "http-date", "--json", "--proxy", good], server: url)
            #expect(offset.exitCode == 0, "\(offset.standardError)")
            // Each was a request squid forwarded for alice (absolute form: no tunnel for http://).
            let forwarded = squid.log.split(separator: "\n").filter { $0.contains("GET http://127.0.0.1:\(url.port!)/") && $0.contains(" alice ") }
            #expect(forwarded.count >= 3 && !squid.log.contains("CONNECT"), "\(squid.log)")

            let refusedProbe = try await home.conn(["probe", "--proxy", bad, health])
            #expect(refusedProbe.exitCode == 69 && refusedProbe.standardOutput.contains("proxyAuthRequired")
                    && refusedProbe.standardOutput.contains("refused these") && !refusedProbe.standardOutput.contains("not-hers"), "\(refusedProbe.standardOutput)")
            let refusedFetch = try await home.conn(["inbox", "fetch", "--proxy", bad], server: url)
            #expect(refusedFetch.exitCode == 77 && refusedFetch.standardError.contains("refused these") && !refusedFetch.standardError.contains("not-hers"),
                    "\(refusedFetch.standardError)")
            let anonymous = try await home.conn(["inbox", "fetch", "--proxy", "http://127.0.0.1:\(squid.port)"], server: url)
            #expect(anonymous.exitCode == 77 && anonymous.standardError.contains("USER:PASSWORD"), "\(anonymous.standardError)")
            // squid answers for a closed port 503 ERR_CONNECT_FAIL 111: the target refused, not the proxy.
            let closed = try await home.conn(["probe", "--json", "--proxy", good, "http://127.0.0.1:\(try HTTPPorts.closed())/health"])
            #expect(try closed.json()["reason"] as? String == "refused" && closed.exitCode == 69, "\(closed.standardOutput)")
            await squid.stop()
        }
    }

    @Test("clock-offset's json and ws methods through tinyproxy and microsocks (the proxy's log has the CONNECTs); sntp says it goes directly; the internet check and /probe go through the proxy too; an https:// one that is not there is 69")
    func otherPathsThroughAProxy() async throws {
        try await ServerProcess.with { url in
            let proxy = try await RealProxy.tinyproxy(in: home)
            let via = "http://127.0.0.1:\(proxy.port)"
            for method in ["json", "ws"] {
                let measured = try await home.conn(["clock-offset", "--json", "--method", method, "--samples", "2", "--proxy", via], server: url)
                #expect(measured.exitCode == 0, "\(method): \(measured.standardError)")
            }
            // json is forwarded (absolute form), ws tunnelled (CONNECT, as browsers do it).
            #expect(proxy.log.contains("GET http://127.0.0.1:\(url.port!)/time") && proxy.log.contains("CONNECT 127.0.0.1:\(url.port!)"), "\(proxy.log)")
            let socks = try await RealProxy.microsocks()
            let overSOCKS = try await home.conn(["clock-offset", "--method", "json", "--samples", "2", "--proxy", "socks5h://127.0.0.1:\(socks.port)"], server: url)
            #expect(overSOCKS.exitCode == 0, "\(overSOCKS.standardError)")
            await socks.stop()
            let ntp = try NTPResponder(skewMS: 0)
            defer { ntp.close() }
            let sntp = try await home.conn(["clock-offset", "--method", "sntp", "--ntp-server", "127.0.0.1:\(ntp.port)", "--proxy", via], server: url)
            #expect(sntp.exitCode == 0 && sntp.standardError.contains("directly: the proxy \(via) carries TCP, and NTP is UDP"), "\(sntp.standardError)")
            let tlsProxy = try await home.conn(["clock-offset", "--method", "json", "--proxy", "https://127.0.0.1:1"], server: url)
            #expect(tlsProxy.exitCode == 69 && tlsProxy.standardError.contains("https://127.0.0.1:1"), "\(tlsProxy.standardError)")

            // The internet check, with its endpoint on this machine, goes through the proxy.
            let internet = try await home.conn(["probe", "--json", "--internet", "--internet-url", "\(url.absoluteString)/health=204", "--proxy", via])
            #expect(internet.exitCode == 0, "\(internet.standardOutput) \(internet.standardError)")
            #expect(proxy.log.contains("GET http://127.0.0.1:\(url.port!)/health"), "\(proxy.log)")
            await proxy.stop()
            let unreachable = try await home.conn(["probe", "--json", "--internet", "--internet-url", "\(url.absoluteString)/health=204", "--proxy", via])
            #expect(unreachable.exitCode == 69, "through the stopped proxy: \(unreachable.standardOutput)")
        }
    }

    @Test("a hostile proxy: garbage, an endless 407 head (1 MiB, never read past 16 KiB), a close mid-CONNECT, and the same from a SOCKS5 one → proxyRefused, not a timeout")
    func hostileProxy() async throws {
        // One connection each: read the CONNECT, answer as told, close.
        let script = """
            import socket, sys
            mode = sys.argv[1]
            listener = socket.socket(); listener.bind(("127.0.0.1", 0)); listener.listen(8)
            print('{"port": %d}' % listener.getsockname()[1], flush=True)
            while True:
                connection, _ = listener.accept()
                connection.recv(65536)
                try:
                    if mode == "garbage": connection.sendall(b"\\x00\\x01 not http at all\\r\\n\\r\\n")
                    elif mode == "endless": connection.sendall(b"HTTP/1.1 407 Proxy Authentication Required\\r\\n" + b"X-Pad: " + b"a" * (1 << 20))
                    elif mode == "socks-garbage": connection.sendall(b"HTTP/1.1 400 Bad Request\\r\\n\\r\\n")
                    elif mode == "socks-endless": connection.sendall(b"\\x05" * (1 << 20))
                except OSError: pass
                connection.close()
            """
        for (mode, words) in [("garbage", "not HTTP"), ("endless", "more than 16 KiB"), ("close", "closed the connection"),
                              ("socks-garbage", "not SOCKS5"), ("socks-endless", "more than 1 KiB|does not speak"), ("socks-close", "closed the connection during the SOCKS5 handshake")] {
            let proxy = try JSONLinesProcess("/usr/bin/python3", ["-c", script, mode], environment: ["PYTHONDONTWRITEBYTECODE": "1"])
            let port = try #require(await poll(for: 10, every: .milliseconds(50)) { proxy.events.first?["port"] as? Int }, "\(proxy.errorOutput)")
            // A verdict of its own, not the deadline's (timeout): the answer was judged, not waited out.
            let scheme = mode.hasPrefix("socks") ? "socks5h" : "http"
            // An https:// target: the CONNECT (StockProxyTests has the same answers to a forwarded request).
            let outcome = try await home.conn(["probe", "--json", "--timeout", "60s", "--proxy", "\(scheme)://127.0.0.1:\(port)", "https://api.example.com/health"])
            let result = try #require((try outcome.json()["results"] as? [[String: Any]])?.first, "\(outcome.standardOutput)")
            // "A|B": either is right (a flood is judged by its first bytes or by its size, as they arrive).
            let explanation = result["explanation"] as? String ?? ""
            #expect(result["verdict"] as? String == "proxyRefused" && words.split(separator: "|").contains { explanation.contains($0) }, "\(mode): \(result)")
            // SIGKILL: the test process may hand its children SIGTERM blocked.
            kill(proxy.process.processIdentifier, SIGKILL)
            await proxy.process.exited(killingAfter: 10)
        }
    }

    @Test("watch looks, and holds its link, through the same proxy as probe: online and connected through tinyproxy and through microsocks, proxyUnreachable through a dead one, http:// or https://")
    func watchThroughAProxy() async throws {
        try await ServerProcess.with { url in
            let proxy = try await RealProxy.tinyproxy(in: home)
            let up = try await home.conn(["watch", "--json", "--no-internet", "--no-link", "--until", "online", "--timeout", "20s"], server: url,
                                         env: ["http_proxy": "http://127.0.0.1:\(proxy.port)"])
            #expect(up.exitCode == 0, "\(up.standardOutput) \(up.standardError)")
            #expect(proxy.log.contains("GET http://127.0.0.1:\(url.port!)/health"), "the look went through the proxy: \(proxy.log)")
            await proxy.stop()
            // The live link tunnels through it too (CONNECT for ws://), the look is forwarded.
            let linked = try await RealProxy.tinyproxy(in: home)
            let connected = try await home.conn(["watch", "--json", "--no-internet", "--interval", "1h", "--until", "connected", "--timeout", "20s"],
                                                server: url, env: ["http_proxy": "http://127.0.0.1:\(linked.port)"])
            #expect(connected.exitCode == 0, "\(connected.standardOutput) \(connected.standardError)")
            #expect(linked.log.contains("CONNECT 127.0.0.1:\(url.port!)") && linked.log.contains("GET http://127.0.0.1:\(url.port!)/health"), "\(linked.log)")
            await linked.stop()
            let down = try await home.conn(["watch", "--json", "--no-internet", "--no-link", "--until", "online", "--timeout", "3s"], server: url,
                                           env: ["http_proxy": "http://127.0.0.1:\(proxy.port)"])
            #expect(down.exitCode == 75 && down.standardOutput.contains(#""reason":"proxyUnreachable""#), "\(down.standardOutput)")
            let tlsProxy = try await home.conn(["watch", "--json", "--no-internet", "--no-link", "--until", "online", "--timeout", "3s"], server: url,
                                               env: ["ALL_PROXY": "https://127.0.0.1:1"])
            #expect(tlsProxy.exitCode == 75 && tlsProxy.standardOutput.contains(#""reason":"proxyUnreachable""#), "\(tlsProxy.standardOutput)")

            // Through SOCKS5 (microsocks): the look and the link.
            let socks = try await RealProxy.microsocks()
            let overSOCKS = try await home.conn(["watch", "--json", "--no-internet", "--interval", "1h", "--until", "connected", "--timeout", "20s"],
                                                server: url, env: ["ALL_PROXY": "socks5h://127.0.0.1:\(socks.port)"])
            #expect(overSOCKS.exitCode == 0 && overSOCKS.standardOutput.contains(#""status":"connected""#),
                    "\(overSOCKS.standardOutput) \(overSOCKS.standardError)")
            // The look on its own: `--until connected` may end before the first look does (the
            // link was quicker on a loaded CI machine, and no state line came).
            let lookOverSOCKS = try await home.conn(["watch", "--json", "--no-internet", "--no-link", "--until", "online", "--timeout", "20s"],
                                                    server: url, env: ["ALL_PROXY": "socks5h://127.0.0.1:\(socks.port)"])
            #expect(lookOverSOCKS.exitCode == 0 && lookOverSOCKS.standardOutput.contains(#""state":"online""#),
                    "\(lookOverSOCKS.standardOutput) \(lookOverSOCKS.standardError)")
            await socks.stop()
            let socksDown = try await home.conn(["watch", "--json", "--no-internet", "--no-link", "--until", "online", "--timeout", "3s"], server: url,
                                                env: ["ALL_PROXY": "socks5h://127.0.0.1:\(socks.port)"])
            #expect(socksDown.exitCode == 75 && socksDown.standardOutput.contains(#""reason":"proxyUnreachable""#), "\(socksDown.standardOutput)")
        }
    }

    @Test("probe through SOCKS5 on the ladder: microsocks (socks5h and socks5, then with user/password: none → proxyAuthRequired, wrong → refused these, right → reachable) and dante (its rules refuse a port → proxyRefused naming why; a closed port → connection refused)",
          .enabled(if: RealProxy.hasDante, "dante-server is not installed (scripts/install-deps)"))
    func probeThroughSOCKS() async throws {
        try await ServerProcess.with { url in
            let health = "\(url.absoluteString)/health"
            func probe(_ proxy: String, _ target: String? = nil) async throws -> (outcome: ProcessOutcome, result: [String: Any]) {
                let outcome = try await home.conn(["probe", "--json", "--proxy", proxy, target ?? health])
                let result = try #require((try outcome.json()["results"] as? [[String: Any]])?.first, "\(outcome.standardOutput) \(outcome.standardError)")
                return (outcome, result)
            }
            let open = try await RealProxy.microsocks()
            for scheme in ["socks5h", "socks5"] {
                let (outcome, result) = try await probe("\(scheme)://127.0.0.1:\(open.port)")
                let rungs = (result["rungs"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
                #expect(outcome.exitCode == 0 && rungs == ["dns", "route", "tcp", "proxy", "http"], "\(scheme): \(outcome.standardOutput)")
                let problems = try await JSONSchemaCheck.violations(of: outcome.standardOutput, schema: "probe")
                #expect(problems.isEmpty, "\(problems)")
            }
            // socks5h hands the name to the proxy (which resolves localhost); socks5 resolves it here.
            let named = "http://localhost:\(url.port!)/health"
            #expect(try await probe("socks5h://127.0.0.1:\(open.port)", named).outcome.exitCode == 0)
            #expect(try await probe("socks5://127.0.0.1:\(open.port)", named).outcome.exitCode == 0)
            let unresolvable = try await probe("socks5://127.0.0.1:\(open.port)", "http://no-such-host.invalid/health")
            #expect(unresolvable.result["verdict"] as? String == "nxdomain", "\(unresolvable.result)")
            await open.stop()

            let guarded = try await RealProxy.microsocks(user: "ann", password: "s0cks-pw")
            let none = try await probe("socks5h://127.0.0.1:\(guarded.port)")
            #expect(none.result["verdict"] as? String == "proxyAuthRequired" && none.outcome.exitCode == 69
                    && (none.result["explanation"] as? String ?? "").contains("socks5h://USER:PASSWORD@HOST:PORT"), "\(none.result)")
            let wrong = try await probe("socks5h://ann:not-it@127.0.0.1:\(guarded.port)")
            #expect(wrong.result["verdict"] as? String == "proxyAuthRequired" && (wrong.result["explanation"] as? String ?? "").contains("refused these")
                    && !wrong.outcome.standardOutput.contains("not-it"), "\(wrong.result)")
            let right = try await probe("socks5h://ann:s0cks-pw@127.0.0.1:\(guarded.port)")
            #expect(right.outcome.exitCode == 0 && !right.outcome.standardOutput.contains("s0cks-pw"), "\(right.outcome.standardOutput)")
            await guarded.stop()

            let blocked = try HTTPPorts.closed()
            let dante = try await RealProxy.dante(in: home, blockedPort: blocked)
            let through = try await probe("socks5://127.0.0.1:\(dante.port)")
            #expect(through.outcome.exitCode == 0, "\(through.outcome.standardOutput)")
            #expect(dante.log.contains("127.0.0.1.\(url.port!)"), "dante passed the connection: \(dante.log)")
            let ruled = try await probe("socks5://127.0.0.1:\(dante.port)", "http://127.0.0.1:\(blocked)/health")
            #expect(ruled.result["verdict"] as? String == "proxyRefused" && (ruled.result["explanation"] as? String ?? "").contains("not allowed by its rules"),
                    "\(ruled.result)")
            // SOCKS5 reply 5: the target refused, through the proxy.
            let closed = try await probe("socks5://127.0.0.1:\(dante.port)", "http://127.0.0.1:\(try HTTPPorts.closed())/health")
            #expect(closed.result["verdict"] as? String == "refused" && (closed.result["explanation"] as? String ?? "").contains("connection refused"),
                    "\(closed.result)")
            await dante.stop()
        }
    }
}
