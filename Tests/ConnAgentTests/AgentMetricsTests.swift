import ConnTestSupport
import Foundation
import Testing

/// `conn agent --metrics-listen` as Prometheus sees it: a real agent, the real conn-server, and
/// promtool (Debian's prometheus package) judging every answer.
@Suite("--metrics-listen of conn agent and conn watch")
struct AgentMetricsTests {
    let home: TemporaryDirectory

    init() throws { home = try TemporaryDirectory() }

    static let promtool = TestTools.promtool

    /// An agent whose metrics listener takes a free port (0): no other test can take it first.
    func agent(_ server: URL, _ extra: [String] = []) throws -> JSONLinesProcess {
        try JSONLinesProcess(ConnProcess.connPath, ["agent", "--json", "--no-internet", "--interval", "1s", "--metrics-listen", "0"] + extra,
                             environment: home.environment.merging(["CONN_SERVER": server.absoluteString]) { $1 })
    }

    /// The port a `--metrics-listen 0` listener got, as the command says on stderr.
    func listeningPort(_ process: JSONLinesProcess) async throws -> Int {
        for _ in 0..<200 {
            if let match = process.errorOutput.firstMatch(of: /metrics: http:\/\/127\.0\.0\.1:(\d+)\/metrics/), let port = Int(match.1) { return port }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw ListenerNotAnnounced(output: process.errorOutput)
    }

    struct ListenerNotAnnounced: Error, CustomStringConvertible {
        let output: String
        var description: String { "the listener's address was never printed: \(output)" }
    }

    func scrape(_ port: Int, path: String = "/metrics", method: String = "GET") async throws -> (status: Int, body: String) {
        let outcome = try await ConnProcess.run("/usr/bin/env", ["curl", "-s", "-X", method, "-w", "\n%{http_code}", "http://127.0.0.1:\(port)\(path)"],
                                                environment: ProcessInfo.processInfo.environment)
        let lines = outcome.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    /// The value of the sample written exactly `series` (name and labels as exposed), if present.
    func value(_ series: String, in body: String) -> Double? {
        body.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    @Test("/metrics: promtool accepts it; the state flips to serverUnreachable when conn-server dies and back; 404, 405")
    func statesAsPrometheusSeesThem() async throws {
        let port = try HTTPPorts.outsideAutomaticRange()
        let server = try await BackgroundServer.start(["--port", String(port)])
        let agent = try agent(server.url)
        _ = try #require(try await agent.await { $0["type"] as? String == "baseline" }, "\(agent.errorOutput)")
        let metricsPort = try await listeningPort(agent)
        let first = try await scrape(metricsPort)
        #expect(first.status == 200)
        #expect(value(#"conn_connectivity_state{state="online"}"#, in: first.body) == 1, "\(first.body)")
        #expect(value(#"conn_probe_success{target="\#(server.url.absoluteString)/health"}"#, in: first.body) == 1, "\(first.body)")
        // One build_info line, labels written whole: this conn's version and a commit.
        let version = try #require(try await home.conn(["--version", "--json"]).json()["version"] as? String)
        let build = first.body.split(separator: "\n").filter { $0.hasPrefix("conn_build_info{") }
        #expect(build.count == 1 && build[0].contains(#"version="\#(version)""#) && build[0].range(of: #"commit="[^"]+""#, options: .regularExpression) != nil
                && build[0].range(of: #"\} 1(\.0)?$"#, options: .regularExpression) != nil, "\(build)")
        // Every change that can happen is there at 0 before it first happens (else increase() misses it).
        #expect(value(#"conn_connectivity_changes_total{from="online",to="serverUnreachable"}"#, in: first.body) == 0, "\(first.body)")
        #expect(first.body.split(separator: "\n").filter { $0.hasPrefix("conn_connectivity_changes_total{") }.count == 12)
        #expect(value(#"conn_probe_verdict_info{target="\#(server.url.absoluteString)/health",verdict="reachable"}"#, in: first.body) == 1,
                "\(first.body)")
        #expect(first.body.contains("conn_build_info{version=") && first.body.contains("process_resident_memory_bytes "))
        #expect(TestTools.acceptable(Self.promtool), "promtool (Debian's prometheus) is missing under .ci/run")
        if let promtool = Self.promtool {
            let checked = try await ConnProcess.run(promtool, ["check", "metrics"], environment: [:], input: first.body)
            #expect(checked.exitCode == 0, "\(checked.standardOutput) \(checked.standardError)")
        }

        server.signal(SIGKILL)
        await server.stop()
        var down = ""
        for _ in 0..<100 where value(#"conn_connectivity_state{state="serverUnreachable"}"#, in: down) != 1 {
            try await Task.sleep(for: .milliseconds(100))
            down = try await scrape(metricsPort).body
        }
        #expect(value(#"conn_connectivity_state{state="serverUnreachable"}"#, in: down) == 1, "\(down)")
        #expect(value(#"conn_connectivity_state{state="online"}"#, in: down) == 0)
        #expect(value(#"conn_connectivity_changes_total{from="online",to="serverUnreachable"}"#, in: down) == 1, "\(down)")
        #expect(down.contains(#"conn_connectivity_reason_info{reason="#))
        #expect(value(#"conn_probe_success{target="\#(server.url.absoluteString)/health"}"#, in: down) == 0)
        // refused, or unexpectedBody when the kill cut an answer short: not reachable, either way.
        #expect(down.contains(#"conn_probe_verdict_info{target="\#(server.url.absoluteString)/health",verdict=""#), "\(down)")
        #expect(!down.contains(#"verdict="reachable"}"#))

        let again = try await BackgroundServer.start(["--port", String(port)])
        var up = ""
        for _ in 0..<100 where value(#"conn_connectivity_state{state="online"}"#, in: up) != 1 {
            try await Task.sleep(for: .milliseconds(100))
            up = try await scrape(metricsPort).body
        }
        #expect(value(#"conn_connectivity_state{state="online"}"#, in: up) == 1, "\(up)")
        #expect(value(#"conn_connectivity_changes_total{from="serverUnreachable",to="online"}"#, in: up) == 1)
        #expect(!up.contains("conn_connectivity_reason_info"))

        // Asked for OpenMetrics (as Prometheus asks), it answers OpenMetrics.
        let openMetrics = try await ConnProcess.run("/usr/bin/env", ["curl", "-si", "-H", "Accept: application/openmetrics-text;version=1.0.0",
                                                                     "http://127.0.0.1:\(metricsPort)/metrics"],
                                                    environment: ProcessInfo.processInfo.environment)
        #expect(openMetrics.standardOutput.contains("Content-Type: application/openmetrics-text; version=1.0.0"), "\(openMetrics.standardOutput.prefix(300))")
        #expect(openMetrics.standardOutput.hasSuffix("# EOF\n") && openMetrics.standardOutput.contains("# TYPE conn_connectivity_changes counter"))
        #expect(try await scrape(metricsPort, path: "/nothing").status == 404)
        #expect(try await scrape(metricsPort, method: "POST").status == 405)
        #expect(await agent.stop() == 0)
        await again.stop()
    }

    @Test("a real Prometheus scraping the agent every second sees online, then serverUnreachable after conn-server is killed, then online",
          .enabled(if: PrometheusTools.hasPrometheus, "prometheus is not installed (Debian package prometheus)"))
    func scrapedByPrometheus() async throws {
        let port = try HTTPPorts.outsideAutomaticRange()
        let server = try await BackgroundServer.start(["--port", String(port)])
        let agent = try agent(server.url)
        let metricsPort = try await listeningPort(agent)
        let prometheus = try RealPrometheus(configuration: """
            global:
              scrape_interval: 1s
            scrape_configs:
              - job_name: conn
                static_configs:
                  - targets: ['127.0.0.1:\(metricsPort)']
            """, in: home)
        defer { prometheus.stop() }
        #expect(try await prometheus.until(#"conn_connectivity_state{state="online"}"#, is: 1), "\(agent.errorOutput)")
        #expect(try await prometheus.until(#"up{job="conn"}"#, is: 1))
        server.signal(SIGKILL)
        await server.stop()
        #expect(try await prometheus.until(#"conn_connectivity_state{state="serverUnreachable"}"#, is: 1))
        #expect(try await prometheus.query(#"conn_connectivity_state{state="online"}"#) == 0)
        let again = try await BackgroundServer.start(["--port", String(port)])
        #expect(try await prometheus.until(#"conn_connectivity_state{state="online"}"#, is: 1))
        #expect(try await prometheus.until(#"conn_connectivity_changes_total{from="serverUnreachable",to="online"}"#, is: 1))
        // The counters existed at 0 before the outage, so Prometheus sees both changes in a range.
        let changes = try await poll(for: 30, every: .milliseconds(250)) {
            try await prometheus.query(#"sum(increase(conn_connectivity_changes_total{job="conn"}[5m]))"#).flatMap { $0 >= 1.5 ? $0 : nil }
        }
        #expect(changes != nil, "increase(conn_connectivity_changes_total[5m]) stayed below 2 changes")
        #expect(try await prometheus.query(#"increase(conn_connectivity_changes_total{from="online",to="serverUnreachable"}[5m])"#) ?? 0 >= 1)
        #expect(await agent.stop() == 0)
        await again.stop()
    }

    @Test("conn watch --metrics-listen serves the same families: online with the link up, promtool accepts it")
    func watchServesMetrics() async throws {
        try await ServerProcess.with { url in
            let watcher = try JSONLinesProcess(ConnProcess.connPath, ["watch", "--json", "--no-internet", "--interval", "1s", "--metrics-listen", "0"],
                                               environment: home.environment.merging(["CONN_SERVER": url.absoluteString]) { $1 })
            _ = try #require(try await watcher.await { ($0["connectionState"] as? [String: Any])?["status"] as? String == "connected" }, "\(watcher.errorOutput)")
            let scraped = try await scrape(try await listeningPort(watcher))
            #expect(scraped.status == 200)
            #expect(value(#"conn_connectivity_state{state="online"}"#, in: scraped.body) == 1, "\(scraped.body)")
            #expect(value("conn_link_connected", in: scraped.body) == 1)
            #expect(value(#"conn_probe_success{target="\#(url.absoluteString)/health"}"#, in: scraped.body) == 1)
            // The link's clock sample, and when it was taken.
            let port = try await listeningPort(watcher)
            let sample = try await poll(for: 15, every: .milliseconds(200)) {
                value("conn_backend_clock_offset_timestamp_seconds", in: try await scrape(port).body)
            }
            #expect(sample != nil, "no conn_backend_clock_offset_timestamp_seconds")
            let measured = sample ?? 0
            #expect(abs(measured - Date().timeIntervalSince1970) < 120)
            // Without --flush-outbox nothing delivers: no delivery counters claim a count.
            #expect(!scraped.body.contains("conn_outbox_deliveries_total"), "\(scraped.body)")
            #expect(TestTools.acceptable(Self.promtool), "promtool (Debian's prometheus) is missing under .ci/run")
            if let promtool = Self.promtool {
                let checked = try await ConnProcess.run(promtool, ["check", "metrics"], environment: [:], input: scraped.body)
                #expect(checked.exitCode == 0, "\(checked.standardOutput) \(checked.standardError)")
            }
            #expect(await watcher.stop() == 143)
        }
    }

    /// The series of an exposition (name and labels, labels in order), without their values.
    static func seriesNames(_ body: String) -> Set<String> {
        Set(body.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            let series = line.split(separator: " ").first.map(String.init) ?? ""
            guard let brace = series.firstIndex(of: "{") else { return series }
            let labels = series[brace...].matches(of: /([a-zA-Z_]+="[^"]*")/).map { String($0.1) }
            return String(series[..<brace]) + "{" + labels.sorted().joined(separator: ",") + "}"
        })
    }

    @Test("GET /probe answers as the blackbox exporter does: the same probe_success for a live server, a closed port and a health URL redirecting within its origin (relative and absolute Location: probe_success 1, probe_http_redirects 1), in both modules, and every series it writes")
    func probeLikeTheBlackboxExporter() async throws {
        let redirecting: [BadServer.Route] = [
            .redirect("GET", "/health", status: 302, to: "/health/"),
            .redirect("GET", "/moved", status: 301, to: "http://127.0.0.1:{port}/health/"),
            .answer("GET", "/health/", status: 200, contentType: "text/plain", body: "ok"),
        ]
        try await BadServer.with(redirecting) { redirects in
        try await ServerProcess.with { url in
            let closed = try HTTPPorts.closed()
            // Other ports of the server's host (a closed one, the redirecting server) are named.
            let agent = try agent(url, ["--probe-allow", "127.0.0.1"])
            _ = try #require(try await agent.await { $0["type"] as? String == "baseline" }, "\(agent.errorOutput)")
            let metricsPort = try await listeningPort(agent)
            let live = "\(url.absoluteString)/health", dead = "http://127.0.0.1:\(closed)/health"
            let cases: [(module: String, target: String, success: Double)] = [
                ("http_2xx", live, 1), ("http_2xx", dead, 0),
                ("tcp_connect", "127.0.0.1:\(url.port!)", 1), ("tcp_connect", "127.0.0.1:\(closed)", 0),
                ("http_2xx", "\(redirects.url.absoluteString)/health", 1), ("http_2xx", "\(redirects.url.absoluteString)/moved", 1),
            ]
            // The blackbox exporter itself, where installed, with the same two modules.
            let blackboxPort = try HTTPPorts.free()
            let blackbox = PrometheusTools.hasBlackbox ? try PrometheusTools.blackboxExporter(in: home, port: blackboxPort) : nil
            if blackbox == nil { print("prometheus-blackbox-exporter is not installed: /probe is checked against its expected answers only") }
            #expect(blackbox != nil || !TestTools.strict, "prometheus-blackbox-exporter is missing under .ci/run")
            defer { blackbox?.terminate() }
            for probe in cases {
                let path = "/probe?module=\(probe.module)&target=\(probe.target.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
                let answer = try await scrape(metricsPort, path: path)
                #expect(answer.status == 200, "\(probe) \(answer.body)")
                #expect(value("probe_success", in: answer.body) == probe.success, "\(probe): \(answer.body)")
                #expect(answer.body.contains("conn_probe_verdict{verdict="), "\(answer.body)")
                if probe.target.hasPrefix(redirects.url.absoluteString) {
                    #expect(value("probe_http_redirects", in: answer.body) == 1 && value("probe_http_status_code", in: answer.body) == 200, "\(probe): \(answer.body)")
                }
                if probe.module == "http_2xx" {
                    let status = value("probe_http_status_code", in: answer.body) ?? -1
                    #expect(probe.success == 1 ? (200..<300).contains(status) : status == 0, "\(answer.body)")  // /health is 204
                    #expect(answer.body.contains(#"probe_http_duration_seconds{phase="connect"}"#))
                }
                #expect(TestTools.acceptable(Self.promtool), "promtool (Debian's prometheus) is missing under .ci/run")
                if let promtool = Self.promtool {
                    let checked = try await ConnProcess.run(promtool, ["check", "metrics"], environment: [:], input: answer.body)
                    #expect(checked.exitCode == 0, "\(checked.standardOutput) \(checked.standardError)")
                }
                if blackbox != nil {
                    var theirs: Double?, body = ""
                    for _ in 0..<50 where theirs == nil {
                        body = try await scrape(blackboxPort, path: path).body
                        theirs = value("probe_success", in: body)
                        if theirs == nil { try await Task.sleep(for: .milliseconds(100)) }
                    }
                    #expect(theirs == probe.success, "the blackbox exporter says \(String(describing: theirs)) for \(probe)")
                    // Every series it writes, conn writes too (a dashboard finds what it looks for).
                    let missing = Self.seriesNames(body).subtracting(Self.seriesNames(answer.body))
                    #expect(missing.isEmpty, "\(probe): conn's /probe lacks \(missing.sorted())")
                    for series in ["probe_http_version", "probe_http_ssl", "probe_http_redirects", "probe_http_content_length", "probe_ip_protocol",
                                   "probe_ip_addr_hash", "probe_http_uncompressed_body_length"] where body.contains(series + " ") {
                        #expect(value(series, in: answer.body) == value(series, in: body), "\(probe): \(series) differs from the blackbox exporter's")
                    }
                }
            }
            #expect(await agent.stop() == 0)
        }
        }
    }

    @Test("one blackbox-style scrape config, pointed once at the blackbox exporter and once at conn, gives the same probe_success in Prometheus",
          .enabled(if: PrometheusTools.hasPrometheus && PrometheusTools.hasBlackbox,
                   "prometheus or prometheus-blackbox-exporter is not installed (Debian packages of those names)"))
    func sameScrapeConfigForBothExporters() async throws {
        try await ServerProcess.with { url in
            let blackboxPort = try HTTPPorts.free()
            let closed = try HTTPPorts.closed()
            // Other ports of the server's host (a closed one, the redirecting server) are named.
            let agent = try agent(url, ["--probe-allow", "127.0.0.1"])
            _ = try #require(try await agent.await { $0["type"] as? String == "baseline" }, "\(agent.errorOutput)")
            let metricsPort = try await listeningPort(agent)
            let blackbox = try PrometheusTools.blackboxExporter(in: home, port: blackboxPort)
            defer { blackbox.terminate() }

            let live = "\(url.absoluteString)/health", dead = "http://127.0.0.1:\(closed)/health"
            let liveSocket = "127.0.0.1:\(url.port!)", deadSocket = "127.0.0.1:\(closed)"
            /// The job as the blackbox exporter's documentation writes it; only `exporter` differs.
            func job(_ name: String, module: String, targets: [String], exporter: Int) -> String {
                """
                  - job_name: \(name)
                    metrics_path: /probe
                    params:
                      module: [\(module)]
                    static_configs:
                      - targets: [\(targets.map { "'\($0)'" }.joined(separator: ", "))]
                    relabel_configs:
                      - source_labels: [__address__]
                        target_label: __param_target
                      - source_labels: [__param_target]
                        target_label: instance
                      - target_label: __address__
                        replacement: 127.0.0.1:\(exporter)

                """
            }
            let prometheus = try RealPrometheus(configuration: """
                global:
                  scrape_interval: 1s
                  scrape_timeout: 1s
                scrape_configs:

                """
                + job("blackbox-http", module: "http_2xx", targets: [live, dead], exporter: blackboxPort)
                + job("conn-http", module: "http_2xx", targets: [live, dead], exporter: metricsPort)
                + job("blackbox-tcp", module: "tcp_connect", targets: [liveSocket, deadSocket], exporter: blackboxPort)
                + job("conn-tcp", module: "tcp_connect", targets: [liveSocket, deadSocket], exporter: metricsPort),
                in: home)
            defer { prometheus.stop() }

            for exporter in ["blackbox", "conn"] {
                for (kind, up, down) in [("http", live, dead), ("tcp", liveSocket, deadSocket)] {
                    let job = "\(exporter)-\(kind)"
                    #expect(try await prometheus.until(#"up{job="\#(job)",instance="\#(up)"}"#, is: 1), "\(job) was not scraped")
                    #expect(try await prometheus.until(#"probe_success{job="\#(job)",instance="\#(up)"}"#, is: 1), "\(job) \(up)")
                    #expect(try await prometheus.until(#"probe_success{job="\#(job)",instance="\#(down)"}"#, is: 0), "\(job) \(down)")
                }
            }
            // conn's own verdict rides along in the same scrape.
            #expect(try await prometheus.until(#"conn_probe_verdict{job="conn-http",instance="\#(live)",verdict="reachable"}"#, is: 1))
            let stopped = await agent.stop()
            #expect(stopped == 0, "the agent ended with \(stopped): \(agent.errorOutput.suffix(3000))")
        }
    }

    @Test("GET /probe refuses: no target 400, an unknown module 400, a target that is not one 400, outside --probe-allow 403")
    func probeRefusals() async throws {
        try await ServerProcess.with { url in
            let agent = try JSONLinesProcess(ConnProcess.connPath, ["agent", "--json", "--no-internet", "--metrics-listen", "0",
                                                                    "--probe-allow", "10.0.0.0/8", "--probe-allow", "*.conn.example",
                                                                    "--probe-allow", "0.0.0.0/0"],
                                             environment: home.environment.merging(["CONN_SERVER": url.absoluteString]) { $1 })
            _ = try #require(try await agent.await { $0["type"] as? String == "baseline" }, "\(agent.errorOutput)")
            let metricsPort = try await listeningPort(agent)
            let missing = try await scrape(metricsPort, path: "/probe?module=http_2xx")
            #expect(missing.status == 400 && missing.body.contains("target parameter is missing"), "\(missing)")
            let module = try await scrape(metricsPort, path: "/probe?module=icmp&target=10.1.2.3")
            #expect(module.status == 400 && module.body.contains("unknown module icmp"), "\(module)")
            let bad = try await scrape(metricsPort, path: "/probe?module=tcp_connect&target=no%20port")
            #expect(bad.status == 400 && bad.body.contains("is not a URL or host:port"), "\(bad)")
            let outside = try await scrape(metricsPort, path: "/probe?target=http://%5B2001:db8::1%5D/")
            #expect(outside.status == 403 && outside.body.contains("--probe-allow"), "\(outside)")
            // Loopback and metadata addresses: only when named; 0.0.0.0/0 does not name them.
            let closedPort = try HTTPPorts.closed()
            for (target, kind) in [("169.254.169.254:80", "cloud metadata"), ("127.0.0.2:\(closedPort)", "loopback")] {
                let refused = try await scrape(metricsPort, path: "/probe?module=tcp_connect&target=\(target)")
                #expect(refused.status == 403 && refused.body.contains(kind), "\(target): \(refused)")
            }
            // The configured server is named: probed, wherever it is.
            let server = try await scrape(metricsPort, path: "/probe?target=\(url.absoluteString)/health")
            #expect(server.status == 200 && value("probe_success", in: server.body) == 1, "\(server)")
            #expect(await agent.stop() == 0)
        }
    }

    @Test("every look goes into conn_probe_duration_seconds (a histogram in --metrics-buckets, blackbox phase names) and conn_probe_failures_total by reason; promtool accepts it; bad buckets are 64")
    func histogramsOverTime() async throws {
        try await ServerProcess.with { url in
            let closed = "127.0.0.1:\(try HTTPPorts.closed())", live = "\(url.absoluteString)/health"
            let watcher = try JSONLinesProcess(ConnProcess.connPath, ["watch", "--json", "--no-internet", "--no-link", "--interval", "100ms",
                                                                      "--metrics-listen", "0", "--metrics-buckets", "0.001,0.01,0.1,1", live, closed],
                                               environment: home.environment.merging(["CONN_SERVER": url.absoluteString]) { $1 })
            let port = try await listeningPort(watcher)
            // At least three looks counted (a look at a state that stays the same is still a look).
            let counted = try await poll(for: 30, every: .milliseconds(100)) { () -> String? in
                let body = try await scrape(port).body
                return (value(#"conn_probe_failures_total{target="\#(closed)",reason="refused"}"#, in: body) ?? 0) >= 3 ? body : nil
            }
            let body = try #require(counted, "\(watcher.errorOutput)")
            let series = #"target="\#(live)",phase="connect""#
            let total = try #require(value("conn_probe_duration_seconds_count{\(series)}", in: body), "\(body)")
            #expect(total >= 3)
            #expect(value("conn_probe_duration_seconds_bucket{\(series),le=\"+Inf\"}", in: body) == total)
            // The four bounds given, and +Inf (written as swift-prometheus writes numbers: 1.0).
            let bounds = body.split(separator: "\n").filter { $0.hasPrefix("conn_probe_duration_seconds_bucket{\(series),le=") }
                .compactMap { $0.split(separator: "\"").dropLast().last.map(String.init) }
            #expect(bounds.compactMap(Double.init) == [0.001, 0.01, 0.1, 1, .infinity], "\(bounds)")
            #expect(value(#"conn_probe_duration_seconds_count{target="\#(live)",phase="processing"}"#, in: body) ?? 0 >= 3)
            // The HTTP rung split at the answer's first byte, as the blackbox exporter splits it.
            #expect(value(#"conn_probe_duration_seconds_count{target="\#(live)",phase="transfer"}"#, in: body)
                    == value(#"conn_probe_duration_seconds_count{target="\#(live)",phase="processing"}"#, in: body))
            #expect(body.contains("# TYPE conn_probe_duration_seconds histogram") && body.contains("# TYPE conn_probe_last_duration_seconds gauge"))
            // Every reason a target can fail for is there from its first look, at 0 until it happens:
            // the live URL's (it never failed), the host:port's other ones; none a host:port cannot have.
            for reason in ["nxdomain", "noRoute", "noCarrier", "refused", "timeout", "httpStatus", "unexpectedBody", "redirected"] {
                #expect(value(#"conn_probe_failures_total{target="\#(live)",reason="\#(reason)"}"#, in: body) == 0, "\(reason): \(body)")
            }
            for reason in ["nxdomain", "noRoute", "noCarrier", "timeout"] {
                #expect(value(#"conn_probe_failures_total{target="\#(closed)",reason="\#(reason)"}"#, in: body) == 0, "\(reason): \(body)")
            }
            #expect(!body.contains(#"conn_probe_failures_total{target="\#(closed)",reason="httpStatus"}"#), "\(body)")
            #expect(TestTools.acceptable(Self.promtool), "promtool (Debian's prometheus) is missing under .ci/run")
            if let promtool = Self.promtool {
                let checked = try await ConnProcess.run(promtool, ["check", "metrics"], environment: [:], input: body)
                #expect(checked.exitCode == 0, "\(checked.standardOutput) \(checked.standardError)")
            }
            #expect(await watcher.stop() == 143)
        }
        for bad in ["", "0", "1,0.5", "x", "-1", String(repeating: "1,", count: 60) + "1"] {
            let refused = try await home.conn(["watch", "--no-internet", "--metrics-listen", "0", "--metrics-buckets", bad, "--until", "online", "--timeout", "1s"])
            #expect(refused.exitCode == 64 && refused.standardError.contains("--metrics-buckets"), "'\(bad.prefix(20))': \(refused.standardError)")
        }
    }

    @Test("a listener other machines can reach, with no --probe-allow: a warning at start, /probe 403, /metrics served")
    func openListenerClosesProbe() async throws {
        try await ServerProcess.with { url in
            let port = try HTTPPorts.free()
            let agent = try JSONLinesProcess(ConnProcess.connPath, ["agent", "--json", "--no-internet", "--metrics-listen", "0.0.0.0:\(port)"],
                                             environment: home.environment.merging(["CONN_SERVER": url.absoluteString]) { $1 })
            _ = try #require(try await agent.await { $0["type"] as? String == "baseline" }, "\(agent.errorOutput)")
            #expect(try await agent.awaitError(containing: "GET /probe answers 403"), "\(agent.errorOutput)")
            let probe = try await scrape(port, path: "/probe?target=\(url.absoluteString)/health")
            #expect(probe.status == 403 && probe.body.contains("--probe-allow"), "\(probe)")
            #expect(try await scrape(port).status == 200)
            #expect(await agent.stop() == 0)
        }
    }

    @Test("--metrics-listen: an address that does not parse is 64 saying why; a port already taken is 69 naming it")
    func badAddresses() async throws {
        let closed = URL(string: "http://127.0.0.1:\(try HTTPPorts.closed())")!
        for bad in ["notaport", "70000", "example.com:9464", "[::1:9464"] {
            let refused = try await home.conn(["agent", "--no-internet", "--metrics-listen", bad], server: closed)
            #expect(refused.exitCode == 64, "\(bad): \(refused.exitCode) \(refused.standardError)")
            #expect(refused.standardError.contains(bad) && refused.standardError.contains("--metrics-listen"), "\(refused.standardError)")
        }
        let taken = try await BackgroundServer.start(["--port", "0"])
        let port = taken.url.port!
        let busy = try await home.conn(["agent", "--no-internet", "--metrics-listen", "127.0.0.1:\(port)"], server: closed)
        #expect(busy.exitCode == 69, "\(busy.exitCode) \(busy.standardError)")
        #expect(busy.standardError.contains("cannot listen on 127.0.0.1:\(port)") && busy.standardError.contains("in use"), "\(busy.standardError)")
        await taken.stop()
    }
}
