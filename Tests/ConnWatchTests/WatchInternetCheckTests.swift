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
}
