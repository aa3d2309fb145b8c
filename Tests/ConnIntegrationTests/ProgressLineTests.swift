import ConnTestSupport
import Foundation
import Testing

/// The progress line of long work, as a person sees it in a real terminal (tmux): it appears,
/// advances, and is gone when the summary is printed; in a pipe and with -q nothing of it is
/// written at all.
@Suite("progress lines", .enabled(if: TerminalSession.available, "needs tmux"), .serialized)
struct ProgressLineTests {
    let home: TemporaryDirectory

    init() throws { home = try TemporaryDirectory() }

    /// Every distinct screen until the command exits.
    func screens(of session: TerminalSession, within seconds: Double = 120) async throws -> [String] {
        var seen: [String] = []
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let exited = (try? session.exitStatus()) != nil
            // Read after the exit check: the screen of an exited command is its last.
            let screen = try session.screen()
            if seen.last != screen { seen.append(screen) }
            if exited { return seen }
            try await Task.sleep(for: .milliseconds(30))
        }
        return seen
    }

    @Test("inbox fetch of 50,000 messages: downloading with bytes, then storing with the count, then only the summary")
    func fetchPhases() async throws {
        let server = try await BackgroundServer.start(["--generate", "50000"])
        let session = try home.terminal(["inbox", "fetch"], server: server.url)
        let seen = try await screens(of: session)
        #expect(try session.exitStatus() == 0, "\(seen.last ?? "")")
        let all = seen.joined(separator: "\n")
        #expect(all.contains("storing 50000 messages…"), "\(seen)")
        let last = try #require(seen.last)
        #expect(last.contains("fetched 50000 messages: 50000 new"), "\(last)")
        #expect(!last.contains("storing") && !last.contains("downloading"), "the progress line was left behind: \(last)")
        // Never wider than the terminal: no progress text wraps onto a second line.
        for screen in seen { #expect(!screen.split(separator: "\n").contains { $0.count > 120 }) }

        // In a pipe, and with -q, nothing of it is written.
        let piped = try await home.conn(["inbox", "fetch", "--force"], server: server.url)
        #expect(piped.exitCode == 0)
        #expect(!piped.standardError.contains("storing") && !piped.standardError.contains("\u{1B}[K") && !piped.standardError.contains("\r"),
                "\(piped.standardError.debugDescription)")
        let quiet = try home.terminal(["inbox", "fetch", "--force", "-q"], server: server.url)
        let quietScreens = try await screens(of: quiet)
        #expect(!quietScreens.joined().contains("storing"), "\(quietScreens)")
        let json = try home.terminal(["inbox", "fetch", "--force", "--json"], server: server.url)
        let jsonScreens = try await screens(of: json)
        #expect(!jsonScreens.joined().contains("storing") && jsonScreens.last?.contains("\"fetched\" : 50000") == true, "\(jsonScreens)")
        await server.stop()
    }

    @Test("a slow download shows the bytes received of the whole, then the summary alone (the inbox trickled: the moment is certain, not a race with a fast loopback)")
    func downloadPhase() async throws {
        let messages = (1...2000).map { index in
            #"{"uid":"m\#(index)","from":"a@b.cc","to":"c@d.ee","subject":"message \#(index)","text":"some text of message \#(index)","responseToUid":"","dateTime":"Today"}"#
        }
        let inbox = #"{"inbox":["# + messages.joined(separator: ",") + "]}"
        let route = BadServer.Route(method: "GET", path: "/inbox", status: 200, headers: [["Content-Type", "application/json"]], body: inbox,
                                    trickle: BadServer.Trickle(bytes: 16_384, intervalMs: 100, afterHead: true))
        try await BadServer.with([route]) { server in
            let session = try home.terminal(["inbox", "fetch"], server: server.url)
            let seen = try await screens(of: session)
            #expect(try session.exitStatus() == 0, "\(seen.last ?? "")")
            #expect(seen.contains { $0.contains(/downloading the inbox: [\d.]+ [KMG]?B of [\d.]+ [KMG]?B/) }, "\(seen)")
            let last = try #require(seen.last)
            #expect(last.contains("fetched 2000 messages") && !last.contains("downloading"), "\(last)")
        }
    }

    @Test("outbox flush of 2,000 messages: sent/failed/waiting counts advance, then the summary alone")
    func flushCounts() async throws {
        let closed = URL(string: "http://127.0.0.1:\(try HTTPPorts.closed())")!
        _ = try await home.conn(["outbox", "list"], server: closed)  // creates the database
        let fill = try await ConnProcess.run("/usr/bin/env", ["python3", JSONSchemaCheck.repositoryRoot.path + "/bench/lib/fill-outbox.py",
                                                              home.path + "/data/conn/conn.sqlite", "2000", "progress"],
                                             environment: ProcessInfo.processInfo.environment)
        #expect(fill.exitCode == 0, "\(fill.standardError)")
        let server = try await BackgroundServer.start(["--latency-ms", "2"])
        let session = try home.terminal(["outbox", "flush", "--concurrency", "4"], server: server.url)
        let seen = try await screens(of: session)
        #expect(try session.exitStatus() == 0, "\(seen.last ?? "")")
        let counts = seen.compactMap { $0.firstMatch(of: /delivering: (\d+) of 2000 sent( \([\d.]+\/s\))?, (\d+) failed, (\d+) waiting, [\d.]+ s/).map { Int($0.1)! } }
        #expect(counts.count >= 2 && counts == counts.sorted() && counts.first! < counts.last!, "\(counts)")
        let last = try #require(seen.last)
        #expect(last.contains("2000 sent") && !last.contains("delivering:"), "\(last)")
        await server.stop()
    }

    @Test("outbox flush against a server that holds each request 2 s: the line moves while requests are in flight, its time rising")
    func flushMovesWhileWaiting() async throws {
        // Queued while nothing listens on the port, for the server that comes up on it.
        let port = try HTTPPorts.outsideAutomaticRange()
        for subject in ["a", "b"] {
            let queued = try await home.conn(["send", "--to", "ann@conn.example", "--subject", subject, "--text", "t"],
                                             server: URL(string: "http://127.0.0.1:\(port)")!)
            #expect(queued.exitCode == 0, "\(queued.standardError)")
        }
        let server = try await BackgroundServer.start(["--port", String(port), "--latency-ms", "2000"])
        let session = try home.terminal(["outbox", "flush", "--concurrency", "1"], server: server.url)
        let seen = try await screens(of: session)
        #expect(try session.exitStatus() == 0, "\(seen.last ?? "")")
        // The time at the end of each drawing of the line, in the order seen.
        let times = seen.compactMap { $0.firstMatch(of: /delivering: \d+ of 2 sent.*, ([\d.]+) s/).flatMap { Double($0.1) } }
        // Two requests of 2 s each: redrawn 4 times a second, that is some 16 drawings; a loaded
        // machine may show fewer, but a line that only changed when a request ended shows 2 or 3.
        #expect(times.count >= 6 && times == times.sorted() && Set(times).count == times.count, "\(times)")
        #expect((times.first ?? 99) < 1.5 && (times.last ?? 0) > 3, "\(times)")
        #expect(try #require(seen.last).contains("2 sent") && !(seen.last ?? "").contains("delivering:"))
        await server.stop()
    }
}
