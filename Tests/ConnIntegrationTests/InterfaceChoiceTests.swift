import ConnTestSupport
import Foundation
import Testing

/// `--interface`, `-4`/`-6` and `--each-interface` in a client namespace with two ways out to
/// conn-server (TwoWaysOut): the default route by the first, a second default route (metric 200)
/// by the second, as a machine with Ethernet and a cellular modem has.
@Suite("the way out: --interface, -4/-6, --each-interface", .enabled(if: NetworkNamespace.available, "needs root and ip netns"))
struct InterfaceChoiceTests {
    let home: TemporaryDirectory

    init() throws { home = try TemporaryDirectory() }

    func conn(_ ways: TwoWaysOut, _ arguments: [String]) async throws -> ProcessOutcome {
        let (program, wrapped) = ways.client.wrap([ConnProcess.connPath] + arguments)
        return try await ConnProcess.run(program, wrapped, environment: home.environment.merging(["CONN_TIMEOUT": "2s"]) { $1 })
    }

    func results(_ outcome: ProcessOutcome) throws -> [[String: Any]] {
        try #require(try outcome.json()["results"] as? [[String: Any]], "\(outcome.standardOutput) \(outcome.standardError)")
    }

    @Test("a name with both families, over an interface that has IPv4 only, goes by IPv4 as curl does (its IPv6 address is routable, by the other interface); bound to an interface that is down, the verdict names it and says so")
    func familiesTheInterfaceCanReach() async throws {
        let ways = try await TwoWaysOut()
        // IPv6 by the second way only.
        try await ways.client.exec(["ip", "-6", "addr", "add", "fd78::1/64", "dev", ways.second, "nodad"])
        try await ways.serverSide.exec(["ip", "-6", "addr", "add", "fd78::2/64", "dev", ways.secondPeer, "nodad"])
        try await ways.serverSide.exec(["ip", "-6", "addr", "add", "fd79::9/128", "dev", "lo"])
        try await ways.client.exec(["ip", "-6", "route", "add", "default", "via", "fd78::2", "dev", ways.second])
        // The name's addresses, for processes in the client namespace (`ip netns exec` mounts
        // /etc/netns/NAME/hosts on /etc/hosts): IPv6 sorts first, as both are routable.
        let etc = "/etc/netns/\(ways.client.name)"
        try FileManager.default.createDirectory(atPath: etc, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: etc) }
        try "127.0.0.1 localhost\nfd79::9 dual.conn.test\n10.79.0.9 dual.conn.test\n".write(toFile: etc + "/hosts", atomically: true, encoding: .utf8)
        let port = ways.server.url.port!

        let outcome = try await conn(ways, ["probe", "--json", "--interface", ways.first, "http://dual.conn.test:\(port)/health"])
        let result = try #require(try results(outcome).first)
        let dns = (result["rungs"] as? [[String: Any]])?.first { $0["name"] as? String == "dns" }
        let dnsDetail = dns?["detail"] as? String ?? ""
        #expect(dnsDetail.contains("fd79::9"), "the name has both families: \(String(describing: dns))")
        #expect(outcome.exitCode == 0 && result["address"] as? String == "10.79.0.9", "\(result)")

        try await ways.client.exec(["ip", "link", "set", ways.first, "down"])
        let down = try await conn(ways, ["probe", "--json", "--interface", ways.first, "http://10.79.0.9:\(port)/health"])
        let downResult = try #require(try results(down).first)
        let explanation = downResult["explanation"] as? String ?? ""
        #expect(down.exitCode == 69 && downResult["verdict"] as? String == "noRoute" && explanation.contains("\(ways.first) (--interface) is down"),
                "\(downResult)")
    }

    @Test("probe bound to each interface in turn, then over both at once: a table of both ways; the first's carrier lost → it fails, the second still works and the state is online; watch and clock-offset follow --interface; bad input is 64")
    func waysOut() async throws {
        let ways = try await TwoWaysOut()
        try await ways.client.exec(["ip", "route", "add", "default", "via", "10.78.0.2", "dev", ways.second, "metric", "200"])
        let health = ways.server.url.absoluteString + "/health"

        // Bound to one interface, the probe leaves by it and says so.
        for interface in [ways.first, ways.second] {
            let outcome = try await conn(ways, ["probe", "--json", "--interface", interface, health])
            let result = try #require(try results(outcome).first)
            #expect(outcome.exitCode == 0 && (result["interface"] as? [String: Any])?["name"] as? String == interface, "\(interface): \(result)")
            let route = (result["rungs"] as? [[String: Any]])?.first { $0["name"] as? String == "route" }
            let routeDetail = route?["detail"] as? String ?? ""
            #expect(routeDetail.contains("bound to \(interface)"), "\(route ?? [:])")
        }

        // Both at once: a row each.
        let both = try await conn(ways, ["probe", "--json", "--each-interface", health])
        let rows = try results(both)
        let names = rows.compactMap { ($0["interface"] as? [String: Any])?["name"] as? String }
        #expect(both.exitCode == 0 && Set(names) == [ways.first, ways.second] && rows.allSatisfy { $0["reachable"] as? Bool == true }, "\(rows)")
        let problems = try await JSONSchemaCheck.violations(of: both.standardOutput, schema: "probe")
        #expect(problems.isEmpty, "\(problems)")

        // The first way loses its carrier (its peer goes down): it fails, the second works.
        try await ways.serverSide.exec(["ip", "link", "set", ways.firstPeer, "down"])
        // The kernel marks the carrier lost within a second (linkwatch); the test waits for that.
        let (ip, show) = ways.client.wrap([NetworkNamespace.ipPath, "-br", "link", "show", "dev", ways.first])
        let lost = await poll(for: 10, every: .milliseconds(50)) {
            (try? await ConnProcess.run(ip, show, environment: [:]))?.standardOutput.contains("LOWER_UP") == false ? true : nil
        }
        #expect(lost == true, "\(ways.first) kept its carrier")
        let table = try await conn(ways, ["probe", "--each-interface", health])
        let lines = table.standardOutput.split(separator: "\n").map(String.init)
        #expect(table.exitCode == 0, "online over the second: \(table.standardOutput) \(table.standardError)")
        #expect(lines.first?.hasPrefix("INTERFACE") == true && lines.first?.contains("VERDICT") == true, "\(table.standardOutput)")
        #expect(lines.contains { $0.hasPrefix(ways.second) && $0.contains("reachable") && $0.contains("IPv4") }, "\(table.standardOutput)")
        #expect(lines.contains { $0.hasPrefix(ways.first) && $0.contains("noCarrier") }, "\(table.standardOutput)")
        let second = try await conn(ways, ["probe", "--interface", ways.second, health])
        #expect(second.exitCode == 0, "\(second.standardOutput)")

        // watch and clock-offset go out the way they are told.
        let watched = try await conn(ways, ["watch", "--json", "--no-link", "--no-internet", "--interface", ways.second, "--until", "online",
                                            "--timeout", "15s", health])
        #expect(watched.exitCode == 0 && watched.standardOutput.contains(#""name":"\#(ways.second)""#), "\(watched.standardOutput) \(watched.standardError)")
        let offset = try await conn(ways, ["clock-offset", "--json", "--method", "json", "--samples", "2", "--interface", ways.second,
                                           "--server", ways.server.url.absoluteString])
        #expect(offset.exitCode == 0, "\(offset.standardError)")
        let unbindable = try await conn(ways, ["clock-offset", "--method", "http-date", "--interface", ways.second, "--server", ways.server.url.absoluteString])
        #expect(unbindable.exitCode == 64 && unbindable.standardError.contains("http-date"), "\(unbindable.standardError)")

        // -6 to an IPv4 server: no address of that family, said as such.
        let six = try await conn(ways, ["probe", "--json", "-6", health])
        #expect(try results(six).first?["verdict"] as? String == "nxdomain" && six.exitCode == 69, "\(six.standardOutput)")
        #expect(try await conn(ways, ["probe", "-4", health]).exitCode == 69, "the first way is still the default route, and down")
        // Bad input: an interface or address this machine does not have, both families.
        let missing = try await conn(ways, ["probe", "--interface", "nosuch0", health])
        #expect(missing.exitCode == 64 && missing.standardError.contains(ways.second), "lists the interfaces: \(missing.standardError)")
        let foreign = try await conn(ways, ["probe", "--interface", "10.99.0.1", health])
        #expect(foreign.exitCode == 64 && foreign.standardError.contains("10.78.0.1"), "lists the addresses: \(foreign.standardError)")
        #expect(try await conn(ways, ["probe", "-4", "-6", health]).exitCode == 64)
        #expect(try await conn(ways, ["probe", "--each-interface", "--interface", ways.first, health]).exitCode == 64)
        await ways.server.stop()
    }
}
