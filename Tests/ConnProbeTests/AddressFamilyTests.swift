import ConnTestSupport
import Foundation
import Testing

/// IPv4 and IPv6 in the internet check, each known: true where it answered, false where it has no
/// route, and unknown (null) only where its answer was still out when the other family had
/// answered — never held until the timeout.
@Suite("the internet check's address families", .serialized)
struct AddressFamilyTests {
    let home: TemporaryDirectory

    init() throws {
        home = try TemporaryDirectory()
    }

    /// A client namespace with IPv4 and IPv6 default routes to a server namespace whose
    /// conn-server listens on both families, at addresses off the link (10.81.0.9, fd81::9 on
    /// its loopback): only the default routes lead there, as to the internet.
    struct DualStack {
        let client: NetworkNamespace
        let serverSide: NetworkNamespace
        let server: BackgroundServer
        let clientLink: String
        let serverLink: String

        init() async throws {
            client = try await NetworkNamespace.make()
            serverSide = try await NetworkNamespace.make()
            clientLink = "fc" + client.name.suffix(8)
            serverLink = "fs" + client.name.suffix(8)
            try await client.veth(clientLink, address: "10.80.0.1/24", to: serverSide, peer: serverLink, peerAddress: "10.80.0.9/24")
            // nodad: usable at once, without the seconds of duplicate address detection.
            try await client.exec(["ip", "-6", "addr", "add", "fd80::1/64", "dev", clientLink, "nodad"])
            try await serverSide.exec(["ip", "-6", "addr", "add", "fd80::9/64", "dev", serverLink, "nodad"])
            try await serverSide.exec(["ip", "addr", "add", "10.81.0.9/32", "dev", "lo"])
            try await serverSide.exec(["ip", "-6", "addr", "add", "fd81::9/128", "dev", "lo"])
            try await client.exec(["ip", "route", "add", "default", "via", "10.80.0.9"])
            try await client.exec(["ip", "-6", "route", "add", "default", "via", "fd80::9"])
            server = try await BackgroundServer.start(["--host", "::"], wrapper: [NetworkNamespace.ipPath, "netns", "exec", serverSide.name])
        }

        /// `conn probe --json --internet-url` over each family's literal, in the client namespace.
        func probe(home: TemporaryDirectory) async throws -> [String: Any] {
            let port = server.port
            let (program, arguments) = client.wrap([ConnProcess.connPath, "probe", "--json", "--timeout", "10s",
                                                    "--internet-url", "http://10.81.0.9:\(port)/health=204",
                                                    "--internet-url", "http://[fd81::9]:\(port)/health=204"])
            let outcome = try await ConnProcess.run(program, arguments, environment: home.environment)
            return try outcome.json()
        }
    }

    @Test("both answer: true and true; IPv6 into a black hole: unknown, not waited for; no IPv6 route: false", .enabled(if: NetworkNamespace.available, "needs root and ip netns"))
    func families() async throws {
        let pair = try await DualStack()
        let both = try await pair.probe(home: home)
        #expect(both["state"] as? String == "online" && both["ipv4"] as? Bool == true && both["ipv6"] as? Bool == true, "\(both)")

        // The IPv6 server address goes: the client's route stays, and the server side (no
        // router) drops what comes for it without a word. Waited for, IPv6 would be false after
        // the 10 s timeout (a timeout is a failure); the check ends 300 ms after IPv4 answered, with
        // IPv6 unknown — the null is the proof, not a clock.
        try await pair.serverSide.exec(["ip", "-6", "addr", "del", "fd81::9/128", "dev", "lo"])
        let blackhole = try await pair.probe(home: home)
        #expect(blackhole["state"] as? String == "online" && blackhole["ipv4"] as? Bool == true, "\(blackhole)")
        #expect(blackhole["ipv6"] is NSNull, "\(blackhole)")

        try await pair.client.exec(["ip", "-6", "route", "del", "default"])
        let noRoute = try await pair.probe(home: home)
        #expect(noRoute["state"] as? String == "online" && noRoute["ipv4"] as? Bool == true && noRoute["ipv6"] as? Bool == false, "\(noRoute)")
        await pair.server.stop()
    }

    @Test("a name with both families whose IPv6 path is a black hole: reached over IPv4 after Happy Eyeballs' 250 ms, not after the IPv6 attempt's 10 s timeout (plain http and a TCP target alike); both working: IPv6, the resolver's first", .enabled(if: NetworkNamespace.available, "needs root and ip netns"))
    func happyEyeballs() async throws {
        let pair = try await DualStack()
        let port = pair.server.port
        // IPv6 sorts first (glibc's default table), as on most hosts (`ip netns exec` mounts
        // /etc/netns/NAME/hosts on /etc/hosts).
        let etc = "/etc/netns/\(pair.client.name)"
        try FileManager.default.createDirectory(atPath: etc, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: etc) }
        try "127.0.0.1 localhost\nfd81::9 dual.conn.test\n10.81.0.9 dual.conn.test\n".write(toFile: etc + "/hosts", atomically: true, encoding: .utf8)
        func probe() async throws -> [[String: Any]] {
            let (program, arguments) = pair.client.wrap([ConnProcess.connPath, "probe", "--json", "--timeout", "10s",
                                                         "http://dual.conn.test:\(port)/health", "dual.conn.test:\(port)"])
            let outcome = try await ConnProcess.run(program, arguments, environment: home.environment)
            return try #require(try outcome.json()["results"] as? [[String: Any]], "\(outcome.standardOutput) \(outcome.standardError)")
        }
        let both = try await probe()
        #expect(both.count == 2 && both.allSatisfy { $0["reachable"] as? Bool == true && $0["address"] as? String == "fd81::9" }, "\(both)")

        // The IPv6 address's packets go to a neighbour nobody is (a permanent entry, so no
        // neighbour discovery fails out loud): they vanish, as on a broken IPv6 path.
        try await pair.client.exec(["ip", "-6", "neigh", "add", "fd80::99", "lladdr", "02:00:00:00:00:01", "dev", pair.clientLink, "nud", "permanent"])
        try await pair.client.exec(["ip", "-6", "route", "add", "fd81::9/128", "via", "fd80::99", "dev", pair.clientLink])
        let blackhole = try await probe()
        #expect(blackhole.count == 2, "\(blackhole)")
        for result in blackhole {
            // One after the other, the IPv6 attempt would have held it for the whole 10 s.
            #expect(result["reachable"] as? Bool == true && result["address"] as? String == "10.81.0.9", "\(result)")
            #expect((result["totalMs"] as? Double ?? .infinity) < 5000, "\(result)")
        }
        await pair.server.stop()
    }
}
