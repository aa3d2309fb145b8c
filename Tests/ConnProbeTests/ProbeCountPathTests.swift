import ConnCore
import ConnTestSupport
import Foundation
import Testing

/// `conn probe --count` keeps a round's routes and interfaces for the next until the kernel says
/// they changed: a change must still show in the first round that starts after it.
@Suite("conn probe --count: the path changing between rounds", .enabled(if: NetworkNamespace.available, "needs root and ip netns"))
struct ProbeCountPathTests {
    let home: TemporaryDirectory

    init() throws { home = try TemporaryDirectory() }

    /// The attempt lines so far ("URL: verdict 1.2ms (round N)").
    static func rounds(_ text: String) -> [Substring] {
        text.split(separator: "\n").filter { $0.contains("(round ") }
    }

    @Test("carrier lost, route removed: the second round after each change says noCarrier, noRoute (the first may have begun before it); each back → reachable")
    func changesBetweenRounds() async throws {
        let client = try await NetworkNamespace.make()
        let serverSide = try await NetworkNamespace.make()
        let interface = "vc" + client.name.suffix(8), peer = "vs" + client.name.suffix(8)
        try await client.veth(interface, address: "10.78.0.1/24", to: serverSide, peer: peer, peerAddress: "10.78.0.2/24")
        let server = try await BackgroundServer.start(["--host", "10.78.0.2"], wrapper: [NetworkNamespace.ipPath, "netns", "exec", serverSide.name])
        // 100 ms apart: a kept look-up would be reused for up to ten rounds, so the verdicts
        // below can only come from a look-up made again after the kernel's notification.
        let (program, arguments) = client.wrap([ConnProcess.connPath, "probe", "--count", "0", "--interval", "100ms", "--timeout", "2s",
                                                "\(server.url.absoluteString)/health"])
        let process = try SpawnedProcess(program, arguments, environment: home.environment, output: .pipe)
        let output = OutputReader(try #require(process.standardOutput))

        /// Makes a change, then waits for the second round that ends after it and returns its line.
        func secondRoundAfter(_ change: () async throws -> Void) async throws -> String {
            try await change()
            let seen = Self.rounds(output.text).count
            let text = await output.wait(20) { Self.rounds($0).count >= seen + 2 }
            let lines = Self.rounds(text)
            return lines.count >= seen + 2 ? String(lines[seen + 1]) : "only \(lines.count - seen) rounds after the change: \(text)"
        }
        /// Waits for a reachable round after the last line seen so far.
        func reachableAgain() async -> Bool {
            let seen = Self.rounds(output.text).count
            let text = await output.wait(20) { Self.rounds($0).dropFirst(seen).contains { $0.contains(": reachable ") } }
            return Self.rounds(text).dropFirst(seen).contains { $0.contains(": reachable ") }
        }

        let started = await output.wait(20) { Self.rounds($0).filter { $0.contains(": reachable ") }.count >= 3 }
        #expect(Self.rounds(started).filter { $0.contains(": reachable ") }.count >= 3, "\(started)")

        let carrierLost = try await secondRoundAfter { try await serverSide.exec(["ip", "link", "set", peer, "down"]) }
        #expect(carrierLost.contains(": noCarrier "), "\(carrierLost)")
        try await serverSide.exec(["ip", "link", "set", peer, "up"])
        #expect(await reachableAgain(), "\(output.text)")

        let routeRemoved = try await secondRoundAfter { try await client.exec(["ip", "route", "del", "10.78.0.0/24", "dev", interface]) }
        #expect(routeRemoved.contains(": noRoute "), "\(routeRemoved)")
        try await client.exec(["ip", "route", "add", "10.78.0.0/24", "dev", interface])
        #expect(await reachableAgain(), "\(output.text)")

        process.interrupt()
        let text = await output.toEnd()
        #expect(await process.exited() == 0, "\(text)")  // the last round's state: online
        await server.stop()
    }
}
