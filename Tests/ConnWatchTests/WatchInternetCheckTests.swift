import ConnTestSupport
import Foundation
import Testing

/// The internet check where a network drops it (a listener on loopback that never accepts
/// stands for a firewall that drops the check's packets; nothing leaves the machine): the
/// configured server's verdict never waits for it.
@Suite("watch with an internet check that never answers")
struct WatchInternetCheckTests {
    let home: TemporaryDirectory

    init() throws { home = try TemporaryDirectory() }

    @Test("internetCheck set to a silent endpoint (the config key, as a network's own check is set): the server's state comes before the check's 5 s deadline, online and then serverUnreachable when it dies; internetCheck off runs none; a URL that is not http:// is 78 naming the key")
    func silentCheckDoesNotHoldTheServer() async throws {
        let silent = try LoopbackListener()
        defer { silent.close() }
        let check = ["CONN_INTERNET_CHECK": "http://127.0.0.1:\(silent.port)/generate_204=204"]
        try await ServerProcess.with { url in
            // The look's deadline is 5 s: a state within 4 s was not held by the check (before,
            // the first state came at 5 s, when the check gave up).
            let online = try await home.conn(["watch", "--json", "--no-link", "--until", "online", "--timeout", "4s"], server: url, env: check)
            #expect(online.exitCode == 0, "\(online.standardOutput) \(online.standardError)")
            let first = try #require(online.standardOutput.split(separator: "\n").first.map(String.init), "\(online.standardOutput)")
            #expect(first.contains(#""state":"online""#), "\(first)")
            // The proof that the verdict did not wait: the check had not answered when it was given.
            let internet = try #require((try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])?["internet"] as? [String: Any], "\(first)")
            #expect(internet["state"] as? String == "pending", "\(first)")
            let shown = try await home.conn(["config", "show"], server: url, env: check)
            #expect(shown.standardOutput.contains("internetCheck") && shown.standardOutput.contains("http://127.0.0.1:\(silent.port)/generate_204=204")
                    && shown.standardOutput.contains("CONN_INTERNET_CHECK"), "\(shown.standardOutput)")
        }
        // The server gone: said as soon as its own look ends (refused on loopback), not after the check.
        let gone = URL(string: "http://127.0.0.1:\(try HTTPPorts.closed())")!
        let unreachable = try await home.conn(["watch", "--json", "--no-link", "--until", "serverUnreachable", "--timeout", "4s"], server: gone, env: check)
        #expect(unreachable.exitCode == 0 && unreachable.standardOutput.contains(#""reason":"refused""#),
                "\(unreachable.standardOutput) \(unreachable.standardError)")
        let off = try await home.conn(["config", "show", "--json"], server: gone, env: ["CONN_INTERNET_CHECK": "off"])
        #expect(try off.json()["internetCheck"] as? [String] == [], "\(off.standardOutput)")
        let defaults = try await home.conn(["config", "show", "--json"], server: gone)
        #expect(try (defaults.json()["internetCheck"] as? [String])?.first == "http://connectivitycheck.gstatic.com/generate_204=204", "\(defaults.standardOutput)")
        let bad = try await home.conn(["watch", "--no-link", "--until", "online", "--timeout", "2s"], server: gone, env: ["CONN_INTERNET_CHECK": "ftp://x/"])
        #expect(bad.exitCode == 78 && bad.standardError.contains("internetCheck"), "\(bad.standardError)")
    }

    @Test("in namespaces: conn's, and a gateway that forwards nothing (the default check's 1.1.1.1 and connectivitycheck.gstatic.com dropped, names too, as a firewall drops them): the server's state comes with the internet pending, the check's verdict later as an internet event (limited); the server killed → serverUnreachable (refused, or unanswered if it died mid-connection) and back → online, each well inside the check's 5 s deadline", .enabled(if: NetworkNamespace.available, "needs root and ip netns"))
    func gatewayThatForwardsNothing() async throws {
        let client = try await NetworkNamespace.make()
        let gateway = try await NetworkNamespace.make()
        try await client.veth("vc" + client.name.suffix(8), address: "10.78.0.1/24", to: gateway, peer: "vg" + client.name.suffix(8), peerAddress: "10.78.0.2/24")
        try await client.exec(["ip", "route", "add", "default", "via", "10.78.0.2"])
        try await gateway.exec(["sysctl", "-qw", "net.ipv4.ip_forward=0", "net.ipv6.conf.all.forwarding=0"])
        // Names resolve through a server beyond the gateway (`ip netns exec` mounts
        // /etc/netns/NAME/resolv.conf on /etc/resolv.conf): dropped as well.
        let etc = "/etc/netns/\(client.name)"
        try FileManager.default.createDirectory(atPath: etc, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: etc) }
        try "nameserver 192.0.2.53\n".write(toFile: etc + "/resolv.conf", atomically: true, encoding: .utf8)
        let wrapper = [NetworkNamespace.ipPath, "netns", "exec", gateway.name]
        var server: BackgroundServer? = try await BackgroundServer.start(["--host", "10.78.0.2"], wrapper: wrapper)
        let url = try #require(server?.url)
        // The default check (no CONN_INTERNET_CHECK, no --internet-url): nothing it sends leaves the gateway.
        let (program, arguments) = client.wrap([ConnProcess.connPath, "watch", "--json", "--interval", "1h"])
        let watch = try JSONLinesProcess(program, arguments, environment: home.environment.merging(["CONN_SERVER": url.absoluteString]) { $1 })
        func internet(_ event: [String: Any]) -> String? { (event["internet"] as? [String: Any])?["state"] as? String }

        let baseline = try #require(try await watch.await { $0["type"] as? String == "baseline" }, "\(watch.errorOutput)")
        #expect(baseline["state"] as? String == "online" && internet(baseline) == "pending", "\(baseline)")
        let settled = try #require(try await watch.await(20) { $0["type"] as? String == "internet" }, "\(watch.events) \(watch.errorOutput)")
        #expect(settled["state"] as? String == "online" && internet(settled) == "limited", "\(settled)")
        _ = try #require(try await watch.await { ($0["connectionState"] as? [String: Any])?["status"] as? String == "connected" })

        // The server's death and return, each seen by its own look (refused at once on the
        // gateway's address), never after the internet check's 5 s.
        // A server dying as a look reaches it: refused, or, when the look's connection was
        // taken just before the listener went, closed unanswered (unexpectedBody). Both seen;
        // both the truth of a dead server.
        let killed = Date()
        server?.signal(SIGKILL)
        await server?.stop()
        server = nil
        let down = try #require(try await watch.await(20) { $0["type"] as? String == "change" && $0["state"] as? String == "serverUnreachable" })
        #expect(["refused", "unexpectedBody"].contains(down["reason"] as? String ?? "") && internet(down) == "limited", "\(down)")
        #expect(Date().timeIntervalSince(killed) < 3, "serverUnreachable came \(Date().timeIntervalSince(killed)) s after the kill: \(watch.events)")
        let restarted = Date()
        server = try await BackgroundServer.start(["--host", "10.78.0.2", "--port", String(url.port!)], wrapper: wrapper)
        _ = try #require(try await watch.await(20) { $0["type"] as? String == "change" && $0["state"] as? String == "online" })
        #expect(Date().timeIntervalSince(restarted) < 3, "online came \(Date().timeIntervalSince(restarted)) s after the restart: \(watch.events)")
        #expect(await watch.stop() == 143)
        await server?.stop()
        // Every line, pending, limited and the rest, in the documented shape.
        #expect(try await JSONSchemaCheck.violations(of: watch.standardOutput, schema: "watch-event") == "")
    }
}
