import ConnTestSupport
import Foundation
import Testing

/// Proxies as people set them, against real ones from Debian: tinyproxy (HTTP CONNECT, basic
/// authentication) and microsocks (SOCKS5), with the real conn-server behind them.
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
            // The server's address appears only in the tunnels the proxy opened (its log).
            #expect(proxy.log.components(separatedBy: "CONNECT 127.0.0.1:\(url.port!)").count - 1 >= 2, "\(proxy.log)")

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
            #expect(without.exitCode == 77 && without.standardError.contains("wants credentials (407)"), "\(without.exitCode) \(without.standardError)")
            let wrong = try await home.conn(["inbox", "fetch", "-v", "--proxy", "http://ann:wrong-pw@127.0.0.1:\(proxy.port)"], server: url)
            // tinyproxy answers wrong credentials 401, not 407: a refused tunnel (69).
            #expect(wrong.exitCode == 69 && wrong.standardError.contains("did not open the way") && !wrong.standardError.contains("wrong-pw"),
                    "\(wrong.standardError)")
            let with = try await home.conn(["inbox", "fetch", "-v", "--proxy", "http://ann:s3cr3t-pw@127.0.0.1:\(proxy.port)"], server: url)
            #expect(with.exitCode == 0, "\(with.standardError)")
            #expect(!with.standardError.contains("s3cr3t-pw") && with.standardError.contains("http://ann@127.0.0.1:\(proxy.port)"), "\(with.standardError)")
            await proxy.stop()
        }
    }

    @Test("SOCKS5 through microsocks (ALL_PROXY=socks5h://): fetch works; microsocks gone → 69 naming ALL_PROXY")
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
}
