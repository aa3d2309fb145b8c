import ConnCore
import ConnTestSupport
import Foundation
import Testing

/// `clock-offset --chrony-socket`: the back end's clock as a time source of a real chronyd (Debian's
/// chrony, the test's own daemon with -x: it never sets this machine's clock), through its SOCK
/// reference clock.
@Suite("clock-offset feeds chronyd")
struct ChronySocketTests {
    @Test("a server 1.5 s ahead: chronyd selects conn's samples and finds this machine 1.5 s slow, within 10 ms; the server's clock moves to 0.5 s: chronyd follows; the server gone: conn withholds and chronyd deselects; SIGTERM ends the feed with 143",
          .enabled(if: ChronyDaemon.available, "needs chronyd (Debian's chrony, scripts/install-deps) and root"))
    func chronydFollowsTheBackEnd() async throws {
        let home = try TemporaryDirectory()
        let daemon = try await ChronyDaemon.start(in: home.path + "/chrony")
        defer { daemon.process.terminate() }
        let socket = daemon.socket
        let port = try HTTPPorts.outsideAutomaticRange()
        var server = try await BackgroundServer.start(["--port", String(port), "--skew-ms", "1500"])
        let feed = try JSONLinesProcess(ConnProcess.connPath, ["clock-offset", "--json", "--method", "json", "--samples", "2", "--interval", "0",
                                                               "--chrony-socket", socket, "--every", "100ms"],
                                        environment: home.environment.merging(["CONN_SERVER": server.url.absoluteString]) { $1 })
        let first = try #require(try await feed.await { $0["sent"] as? Bool == true }, "\(feed.errorOutput)")
        // The true offset (1500 ms) lies within the estimate's own bound, however loaded the machine.
        let bound = first["uncertaintyMs"] as? Double ?? 0
        #expect(abs((first["offsetMs"] as? Double ?? 0) - 1500) <= bound + 0.5 && first["reason"] is NSNull, "\(first)")
        #expect(try await daemon.slow(by: 1.5) != nil, "chronyc tracking never said 1.5 s slow")
        // The back end's clock changes: chronyd follows.
        await server.stop()
        server = try await BackgroundServer.start(["--port", String(port), "--skew-ms", "500"])
        #expect(try await daemon.slow(by: 0.5) != nil, "chronyc tracking never followed to 0.5 s slow")
        // The server gone: conn sends nothing (it says why, once), and chronyd deselects the source.
        let saidBefore = feed.errorOutput.count  // the restart above may have been said already
        await server.stop()
        #expect(try await feed.awaitError(30, containing: "no estimate, nothing sent to chronyd"), "\(feed.errorOutput)")
        let deselected = try await daemon.deselected()
        #expect(deselected != nil, "chronyd still selects conn's source after the server went")
        let saidSince = String(feed.errorOutput.dropFirst(saidBefore))
        #expect(saidSince.components(separatedBy: "no estimate, nothing sent").count == 2, "said once: \(saidSince)")
        #expect(await feed.stop() == 143, "\(feed.errorOutput)")
    }

    @Test("no chronyd at the path: 69 saying so; a path that is not a socket: 64; a bound wider than --max-uncertainty: withheld, 75, never sent")
    func refusalsAndWithheld() async throws {
        let home = try TemporaryDirectory()
        try await ServerProcess.with { url in
            let absent = try await home.conn(["clock-offset", "--chrony-socket", home.path + "/absent.sock"], server: url)
            #expect(absent.exitCode == 69 && absent.standardError.contains("chronyd is not listening at \(home.path)/absent.sock"), "\(absent.standardError)")
            let file = try home.write("not-a-socket", "")
            let notSocket = try await home.conn(["clock-offset", "--chrony-socket", file], server: url)
            #expect(notSocket.exitCode == 64 && notSocket.standardError.contains("is not a socket"), "\(notSocket.standardError)")
            let wide = try await home.conn(["clock-offset", "--json", "--chrony-socket", home.path + "/absent.sock", "--max-uncertainty", "0.000001"], server: url)
            let line = try wide.json()
            #expect(wide.exitCode == 75 && line["sent"] as? Bool == false && (line["reason"] as? String)?.contains("not sent") == true,
                    "\(wide.exitCode) \(wide.standardOutput) \(wide.standardError)")
            let problems = try await JSONSchemaCheck.violations(of: wide.standardOutput, schema: "clock-offset-chrony")
            #expect(problems.isEmpty, "\(problems)")
            let every = try await home.conn(["clock-offset", "--every", "1s"], server: url)
            #expect(every.exitCode == 64 && every.standardError.contains("--chrony-socket"), "\(every.standardError)")
        }
    }
}
