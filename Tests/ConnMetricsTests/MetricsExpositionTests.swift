import ConnCore
@testable import ConnMetrics
import ConnProbe
import Foundation
import Testing

@Suite("the metrics exposition")
struct MetricsExpositionTests {
    /// A probe result as `conn probe --json` writes one (ProbeResult is made by the prober only).
    func result(target: String, reachable: Bool) -> ProbeResult {
        let object: [String: Any] = [
            "target": target, "kind": "url", "url": target, "host": "h", "port": 1, "reachable": reachable,
            "verdict": reachable ? "reachable" : "refused", "explanation": "", "totalMs": 1.5,
            "rungs": [["name": "tcp", "ok": reachable, "ms": 1.5, "detail": ""]],
        ]
        return try! JSONDecoder().decode(ProbeResult.self, from: JSONSerialization.data(withJSONObject: object))
    }

    @Test("a target's quotes, backslashes and newlines are escaped as the text format says; user:password never appears")
    func escaping() {
        var snapshot = MetricsSnapshot()
        snapshot.targetsText = MetricsExposition.targets([result(target: "http://a\"b\\c\nd.example/", reachable: false),
                                                          result(target: "https://ann:s3cret@api.example/health", reachable: true)])
        let text = MetricsExposition.render(snapshot, version: "0.2.0", commit: "abc", process: false)
        #expect(text.contains(#"conn_probe_success{target="http://a\"b\\c\nd.example/"} 0"#), "\(text)")
        #expect(!text.contains("s3cret") && !text.contains("ann:"), "\(text)")
        #expect(text.contains(#"conn_probe_last_duration_seconds{target="http://a\"b\\c\nd.example/",phase="tcp"} 0.0015"#))
    }

    @Test("every state is written, one at 1; changes count by from and to; the reason only while not online")
    func states() {
        var snapshot = MetricsSnapshot()
        snapshot.network = NetworkState(state: .portal, reason: .portal, failingTarget: nil)
        snapshot.changes[.init(from: .online, to: .portal)] = 2
        let text = MetricsExposition.render(snapshot, version: "0.2.0", commit: "abc", process: false)
        for state in NetworkStatus.allCases {
            #expect(text.contains(#"conn_connectivity_state{state="\#(state.rawValue)"} \#(state == .portal ? "1.0" : "0.0")"#), "\(text)")
        }
        #expect(text.contains(#"conn_connectivity_changes_total{from="online",to="portal"} 2"#))
        #expect(text.contains(#"conn_connectivity_changes_total{from="offline",to="online"} 0"#), "\(text)")  // there before it happens
        #expect(!text.contains(#"from="online",to="online""#))
        #expect(text.contains(#"conn_connectivity_reason_info{reason="portal"} 1.0"#))
        #expect(!MetricsExposition.render(MetricsSnapshot(), version: "0.2.0", commit: "abc", process: false).contains("reason_info"))
    }

    @Test("listen addresses: a port alone is loopback; all interfaces only when written; bad ones say why")
    func listenAddresses() throws {
        #expect(try ListenAddress.parse("9464") == ListenAddress(host: "127.0.0.1", port: 9464))
        #expect(try ListenAddress.parse(":9464") == ListenAddress(host: "127.0.0.1", port: 9464))
        #expect(try ListenAddress.parse("localhost:9464") == ListenAddress(host: "127.0.0.1", port: 9464))
        #expect(try ListenAddress.parse("0.0.0.0:9464") == ListenAddress(host: "0.0.0.0", port: 9464))
        #expect(try ListenAddress.parse("[::1]:9464") == ListenAddress(host: "::1", port: 9464))
        #expect(ListenAddress(host: "::1", port: 9464).description == "[::1]:9464")
        for bad in ["", "x", "-1", "65536", "host.example:80", "[::1]", "[::1]9464", "1.2.3:80"] {
            #expect(throws: ListenAddressError.self, "\(bad)") { try ListenAddress.parse(bad) }
        }
    }

    @Test("--probe-allow patterns: addresses, CIDR ranges of either family, hosts and *.domains; bad ones refused")
    func probeAllowList() throws {
        let list = ProbeAllowList(patterns: try ["10.0.0.0/8", "fd00::/8", "192.0.2.7", "api.example.com", "*.conn.example"].map(ProbeAllowList.parse))
        for allowed in ["10.1.2.3", "fd12::1", "192.0.2.7", "API.example.com", "eu.conn.example"] { #expect(list.allows(allowed), "\(allowed)") }
        for refused in ["11.0.0.1", "fe80::1", "192.0.2.8", "example.com", "conn.example", "evilconn.example"] { #expect(!list.allows(refused), "\(refused)") }
        #expect(ProbeAllowList().allows("anything.example"))
        for bad in ["10.0.0.0/33", "fd00::/129", "*.", "a b", "10.0.0.0/8/1", ""] {
            #expect(throws: (any Error).self, "\(bad)") { try ProbeAllowList.parse(bad) }
        }
    }

    @Test("/probe's policy: the configured server's origin (host and port) and --probe-allow; loopback, link-local and metadata only when named as addresses, wherever a name leads; off on an open listener without limits")
    func probePolicy() throws {
        let list = ProbeAllowList(patterns: try ["0.0.0.0/0", "*.conn.example", "127.0.0.3", "169.254.0.0/16", "intranet.example"].map(ProbeAllowList.parse))
        let policy = ProbePolicy(allowList: list, named: [.init(host: "127.0.0.1", port: 8080), .init(host: "[::1]", port: 8080)], closed: false)
        let cases: [(host: String, port: Int, addresses: [String], allowed: Bool)] = [
            ("127.0.0.1", 8080, ["127.0.0.1"], true),            // the configured server's origin
            ("::1", 8080, ["::1"], true),                        // named, in brackets or not
            ("127.0.0.1", 8081, ["127.0.0.1"], false),           // another port of its host: loopback, and 0.0.0.0/0 does not name it
            ("127.0.0.3", 22, ["127.0.0.3"], true),              // named exactly as an address, any port
            ("127.0.0.2", 80, ["127.0.0.2"], false),             // loopback, only inside 0.0.0.0/0
            ("169.254.10.1", 80, ["169.254.10.1"], true),        // link-local, in a link-local range
            ("169.254.169.254", 80, ["169.254.169.254"], false), // metadata: the /16 is wider than it
            ("::ffff:169.254.169.254", 80, ["::ffff:169.254.169.254"], false),  // the same, mapped
            ("fd00:ec2::254", 80, ["fd00:ec2::254"], false),     // not allowed at all (no IPv6 range)
            ("eu.conn.example", 443, ["192.0.2.10"], true),      // a domain, leading somewhere ordinary
            ("evil.conn.example", 443, ["127.0.0.1"], false),    // a domain, leading to loopback
            ("intranet.example", 443, ["10.0.0.5"], true),       // named exactly, leading somewhere ordinary
            ("intranet.example", 443, ["10.0.0.5", "::1"], false),  // named exactly, but one address is loopback (rebinding)
            ("intranet.example", 443, ["169.254.3.4"], true),    // leading into a range named as such
            ("example.com", 443, ["192.0.2.1"], false),          // not in the list
            ("192.0.2.1", 443, ["192.0.2.1"], true),             // in 0.0.0.0/0
        ]
        for item in cases {
            let decision = policy.decide(host: item.host, port: item.port, addresses: item.addresses)
            #expect((decision == .allowed) == item.allowed, "\(item.host):\(item.port): \(decision)")
        }
        #expect(policy.decide(host: "intranet.example", port: 443, addresses: ["::1"]) == .refused(
            "target intranet.example is at ::1, a loopback address: allowed only when named as an address (--probe-allow ::1)"))
        // No --probe-allow: the configured server's origin only; its other ports are said to be so.
        let server = ProbePolicy(allowList: ProbeAllowList(), named: [.init(host: "API.conn.example", port: 443)], closed: false)
        #expect(server.decide(host: "api.conn.example", port: 443, addresses: ["192.0.2.4"]) == .allowed)
        #expect(server.decide(host: "other.example", port: 443, addresses: ["192.0.2.5"]) != .allowed)
        #expect(server.decide(host: "api.conn.example", port: 22, addresses: ["192.0.2.4"]) == .refused(
            "target api.conn.example:22 is another port of api.conn.example:443's host: /probe reaches the configured server's origin, not every service beside it (--probe-allow api.conn.example allows its other ports)"))
        let closed = ProbePolicy(allowList: ProbeAllowList(), named: [.init(host: "api.conn.example", port: 443)], closed: true)
        #expect(closed.decide(host: "api.conn.example", port: 443, addresses: ["192.0.2.4"]) != .allowed)
    }

    @Test("basic authentication: only a listed user with the password of its bcrypt hash; headers that are not Basic credentials never pass")
    func basicAuthentication() {
        // bcrypt (cost 4) of "s3cret", made by libxcrypt.
        let access = WebConfig(users: ["prom": "$2b$04$v67izzZ/rIrz8MMYY8V1HuEh1bRFN2dAPqifYK1DzmNGjkdgkdYFS"])
        let basic = { (text: String) in "Basic " + Data(text.utf8).base64EncodedString() }
        #expect(access.authorizes(basic("prom:s3cret")))
        #expect(access.authorizes("basic " + Data("prom:s3cret".utf8).base64EncodedString()))
        for refused in [nil, "", "Basic", basic("prom:wrong"), basic("prom:"), basic("nobody:s3cret"), basic("prom"), "Bearer s3cret",
                        "Basic !!!notbase64", basic(":s3cret"), "Basic " + String(repeating: "A", count: 10_000)] {
            #expect(!access.authorizes(refused), "\(String(describing: refused).prefix(40))")
        }
        #expect(WebConfig().authorizes(nil), "no users: no authentication asked")
        #expect(WebConfig.isBcrypt("$2y$10$" + String(repeating: "x", count: 53)) && !WebConfig.isBcrypt("$1$abc") && !WebConfig.isBcrypt("s3cret"))
    }

    @Test("the scrape's timeout header: less half a second, at least half a second, at most the ceiling; junk ignored")
    func probeTimeout() {
        #expect(ProbeEndpoint.timeout(scrapeTimeout: "10", ceiling: .seconds(30)) == .milliseconds(9500))
        #expect(ProbeEndpoint.timeout(scrapeTimeout: "0.6", ceiling: .seconds(30)) == .milliseconds(500))
        #expect(ProbeEndpoint.timeout(scrapeTimeout: "120", ceiling: .seconds(30)) == .seconds(30))
        for junk in [nil, "", "soon", "-1", "inf", "nan", "1e400"] {
            #expect(ProbeEndpoint.timeout(scrapeTimeout: junk, ceiling: .seconds(7)) == .seconds(7), "\(String(describing: junk))")
        }
    }

    @Test("OpenMetrics: a counter's family loses _total in TYPE and HELP, its samples keep it, and # EOF ends it")
    func openMetrics() {
        var snapshot = MetricsSnapshot()
        snapshot.changes[.init(from: .online, to: .offline)] = 1
        let converted = OpenMetrics.convert(MetricsExposition.render(snapshot, version: "0.2.0", commit: "abc", process: false))
        #expect(converted.contains("# TYPE conn_connectivity_changes counter\n"), "\(converted)")
        #expect(converted.contains("# HELP conn_connectivity_changes Changes"), "\(converted)")
        #expect(converted.contains(#"conn_connectivity_changes_total{from="online",to="offline"} 1"#))
        #expect(converted.contains("# TYPE conn_connectivity_state gauge\n"))
        #expect(converted.hasSuffix("\n# EOF\n") && !converted.contains("\n\n"))
    }

    @Test("Accept: OpenMetrics only when asked for above text/plain")
    func negotiation() {
        let prometheus = "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1"
        #expect(OpenMetrics.isPreferred(byAccept: prometheus))
        #expect(!OpenMetrics.isPreferred(byAccept: nil))
        #expect(!OpenMetrics.isPreferred(byAccept: "*/*"))
        #expect(!OpenMetrics.isPreferred(byAccept: "text/plain, application/openmetrics-text;q=0.5"))
        #expect(!OpenMetrics.isPreferred(byAccept: "application/openmetrics-text;q=0"))
        #expect(!OpenMetrics.isPreferred(byAccept: "application/openmetrics-text;q=nan"))
    }

    @Test("/probe's blackbox families: the address tried even when the connection failed, its FNV-1a hash, IPv6 as 6, 0 without an address; content length as Go reads it")
    func blackboxFamilies() throws {
        func decoded(_ object: [String: Any]) throws -> ProbeResult {
            var base: [String: Any] = ["target": "t", "kind": "url", "host": "h", "port": 80, "reachable": false, "verdict": "refused",
                                       "explanation": "", "totalMs": 3.0, "rungs": []]
            base.merge(object) { $1 }
            return try JSONDecoder().decode(ProbeResult.self, from: JSONSerialization.data(withJSONObject: base))
        }
        func sample(_ name: String, _ text: String) -> Double? {
            text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
        }
        var refused = try decoded(["host": "db.example", "rungs": [["name": "dns", "ok": true, "ms": 1.0, "detail": "2001:db8::7, 192.0.2.7"],
                                                                  ["name": "tcp", "ok": false, "ms": 1.0, "detail": "refused"]]])
        // What the prober records when the name resolves (not in the JSON).
        refused.resolvedAddress = "2001:db8::7"
        var text = ProbeEndpoint.render(refused, module: "http_2xx")
        #expect(sample("probe_ip_protocol", text) == 6, "\(text)")
        #expect(sample("probe_ip_addr_hash", text) == Double(ProbeEndpoint.fnv1a32(AddressBytes.parse("2001:db8::7")!)))
        #expect(ProbeEndpoint.fnv1a32([127, 0, 0, 1]) == 3_668_918_509)  // the real exporter's figure for 127.0.0.1
        #expect(sample("probe_http_content_length", text) == 0 && sample("probe_http_version", text) == 0)
        text = ProbeEndpoint.render(try decoded(["verdict": "nxdomain", "rungs": [["name": "dns", "ok": false, "ms": 2.0, "detail": "no such name"]]]),
                                    module: "tcp_connect")
        #expect(sample("probe_ip_protocol", text) == 0 && sample("probe_ip_addr_hash", text) == 0, "\(text)")
        #expect(!text.contains("probe_http_"))
        let chunked = try decoded(["host": "192.0.2.8", "address": "192.0.2.8", "reachable": true, "verdict": "reachable", "httpStatus": 200,
                                   "response": ["httpVersion": "1.0", "bodyBytes": 10, "firstByteMs": 2.0, "tls": true, "redirects": 2],
                                   "rungs": [["name": "http", "ok": true, "ms": 5.0, "detail": ""]]])
        text = ProbeEndpoint.render(chunked, module: "http_2xx")
        #expect(sample("probe_http_content_length", text) == -1 && sample("probe_http_version", text) == 1, "\(text)")
        #expect(sample("probe_http_ssl", text) == 1 && sample("probe_http_redirects", text) == 2 && sample("probe_http_uncompressed_body_length", text) == 10)
        #expect(sample(#"probe_http_duration_seconds{phase="transfer"}"#, text) == 0.003 && sample(#"probe_http_duration_seconds{phase="processing"}"#, text) == 0.002)
    }
}
