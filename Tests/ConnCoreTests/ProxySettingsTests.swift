@testable import ConnCore
import Foundation
import Testing

/// Which proxy a request takes, as curl and Go read the settings, and what a proxy URL may be.
@Suite("proxy settings")
struct ProxySettingsTests {
    func decide(_ url: String, _ environment: [String: String], proxy: String? = nil, noProxy: String? = nil) throws -> ProxySettings.Decision {
        try ProxySettings(explicitProxy: proxy.map { .init(text: $0, source: "flag --proxy") },
                          explicitNoProxy: noProxy.map { .init(text: $0, source: "flag --noproxy") }, environment: environment)
            .decision(for: URL(string: url)!)
    }

    @Test("the variables by scheme: http_proxy, then HTTP_PROXY unless REQUEST_METHOD (CGI); https_proxy/HTTPS_PROXY; all_proxy last; lower case first; ws and wss as http and https")
    func variables() throws {
        #expect(try decide("http://a.example/", ["HTTP_PROXY": "h1:1", "http_proxy": "h2:2"]).server?.host == "h2")
        #expect(try decide("http://a.example/", ["HTTP_PROXY": "h1:1"]).server?.host == "h1")
        #expect(try decide("http://a.example/", ["HTTP_PROXY": "h1:1", "REQUEST_METHOD": "GET"]).server == nil)
        #expect(try decide("https://a.example/", ["HTTPS_PROXY": "s1:1", "http_proxy": "h2:2"]).server?.host == "s1")
        #expect(try decide("https://a.example/", ["http_proxy": "h2:2"]).server == nil)
        #expect(try decide("https://a.example/", ["ALL_PROXY": "socks5h://all:9"]).server == ProxyServer(scheme: .socks5h, host: "all", port: 9))
        #expect(try decide("wss://a.example/", ["https_proxy": "s:1"]).server?.host == "s" && decide("ws://a.example/", ["http_proxy": "h:1"]).server?.host == "h")
        let chosen = try decide("https://a.example/", ["https_proxy": "s:1"])
        #expect(chosen.reason == "from environment variable https_proxy")
        // --proxy wins over the environment, and '' turns proxies off.
        #expect(try decide("https://a.example/", ["https_proxy": "s:1"], proxy: "o:2").server?.host == "o")
        #expect(try decide("https://a.example/", ["https_proxy": "s:1"], proxy: "").server == nil)
        // Loopback is proxied like any host (curl), unless the list names it.
        #expect(try decide("http://127.0.0.1:8080/", ["http_proxy": "p:1"]).server?.host == "p")
    }

    @Test("NO_PROXY: *, names and their subdomains (with or without a dot), addresses, CIDR ranges of both families, ports; matched on the host as written")
    func exceptions() throws {
        let proxy = ["https_proxy": "p:1", "http_proxy": "p:1"]
        func direct(_ url: String, _ list: String) throws -> Bool {
            try decide(url, proxy.merging(["NO_PROXY": list]) { $1 }).server == nil
        }
        #expect(try direct("https://api.example.com/", "example.com") && direct("https://example.com/", ".example.com"))
        #expect(try !direct("https://badexample.com/", "example.com"))
        #expect(try direct("https://x.internal/", "foo, *.internal"))
        #expect(try direct("http://10.1.2.3/", "10.0.0.0/8") && !direct("http://11.1.2.3/", "10.0.0.0/8"))
        #expect(try direct("http://[fd00::5]/", "fd00::/8") && direct("http://[::1]:8080/", "[::1]:8080") && !direct("http://[::1]:8081/", "[::1]:8080"))
        #expect(try direct("http://192.168.1.1:3000/", "192.168.1.1:3000") && !direct("http://192.168.1.1/", "192.168.1.1:3000"))
        #expect(try direct("https://anything.example/", "*"))
        #expect(try direct("https://anything.example/", " * "))
        // curl's rule: `*` is "everything" only as the whole value; in a list it is ignored.
        #expect(try !direct("https://anything.example/", "example.com,*"))
        #expect(try !direct("https://anything.example/", "*, .internal"))
        #expect(try direct("https://x.internal/", "*, .internal"))
        #expect(try direct("https://API.Example.COM/", "example.com"))
        // --noproxy wins over NO_PROXY; no_proxy before NO_PROXY.
        #expect(try decide("https://a.example/", proxy.merging(["NO_PROXY": "a.example"]) { $1 }, noProxy: "b.example").server != nil)
        #expect(try decide("https://a.example/", proxy.merging(["no_proxy": "b.example", "NO_PROXY": "a.example"]) { $1 }).server != nil)
        let reason = try decide("https://a.example/", proxy.merging(["NO_PROXY": "a.example"]) { $1 }).reason
        #expect(reason == "environment variable NO_PROXY lists a.example: no proxy")
    }

    @Test("a proxy URL: no scheme is http on 1080 (curl); https on 443; credentials decoded and never displayed with the password; bad ones are 64 naming their source")
    func proxyURLs() throws {
        #expect(try ProxyServer.parse("proxy.example", from: "x") == ProxyServer(scheme: .http, host: "proxy.example", port: 1080))
        #expect(try ProxyServer.parse("https://p.example", from: "x").port == 443)
        let withCredentials = try ProxyServer.parse("http://ann%40corp:p%3Ass@[fd00::1]:3128", from: "x")
        #expect(withCredentials.user == "ann@corp" && withCredentials.password == "p:ss" && withCredentials.host == "fd00::1")
        #expect(withCredentials.display == "http://ann@corp@[fd00::1]:3128" && !withCredentials.display.contains("p:ss"))
        for (text, words) in [("ftp://p:1", "scheme 'ftp'"), ("http://p:0", "outside 1-65535"), ("http://p:70000", "1-65535"), ("http://p:1000000", "1-65535"), ("http://p:99999999/", "1-65535"), ("http://:8080", "no host"),
                              ("http://us er@p:1", "space")] {
            do {
                _ = try ProxyServer.parse(text, from: "environment variable HTTPS_PROXY")
                Issue.record("\(text) was taken")
            } catch let error as ConnError {
                #expect(error.exitStatus == .usage && error.message.contains("environment variable HTTPS_PROXY") && error.message.contains(words), "\(error.message)")
            }
        }
        // A bad variable fails the request that would use it, naming the variable.
        #expect(throws: ConnError.self) { try decide("https://a.example/", ["HTTPS_PROXY": "gopher://p"]) }
    }
}
