import ConnTestSupport
import Foundation
import Testing

/// The spinner of waits of unknown length (`probe --wait`, `send --wait`) in a real terminal: it
/// turns while the wait lasts, says what is awaited and for how long, and is gone when the wait
/// ends; in a pipe there is none, only a note per try.
@Suite("spinners for --wait", .enabled(if: TerminalSession.available, "needs tmux"), .serialized)
struct SpinnerTests {
    let home: TemporaryDirectory

    init() throws { home = try TemporaryDirectory() }

    /// Every last line of the screen seen until `predicate` holds for the screen.
    func lastLines(_ session: TerminalSession, until predicate: @escaping (String) -> Bool) async throws -> [String] {
        var lines: [String] = []
        try await session.waitFor(30, "the spinner") { screen in
            if let last = screen.split(separator: "\n").last, lines.last != String(last) { lines.append(String(last)) }
            return predicate(screen)
        }
        return lines
    }

    @Test("probe --wait: a turning mark, the target and the time against the limit; once the port opens, the report alone")
    func probeWait() async throws {
        let port = try HTTPPorts.outsideAutomaticRange()
        let session = try home.terminal(["probe", "--wait", "60s", "127.0.0.1:\(port)"])
        // Turning: three different frames with two different marks, each with the time against
        // the limit. Read from the pane's transcript, not from looks at the screen: a loaded
        // test run looked too seldom to see the mark turn (three runs out of five, once).
        let frame = "s of 1m  waiting: 127.0.0.1:\(port)"
        let frames = try #require(await poll(for: 50, every: .milliseconds(100)) { () -> Set<String>? in
            let seen = Set(session.transcript().split(whereSeparator: { $0 == "\r" || $0 == "\n" })
                .map { $0.replacingOccurrences(of: "\u{1B}[K", with: "").trimmingCharacters(in: .whitespaces) }
                .filter { $0.contains(frame) })
            return seen.count >= 3 && Set(seen.compactMap(\.first)).count >= 2 ? seen : nil
        }, "no turning mark in the transcript: \(session.transcript().suffix(2000))")
        #expect(frames.allSatisfy { $0.contains("waiting: 127.0.0.1:\(port) (refused)") }, "\(frames)")
        let server = try await BackgroundServer.start(["--port", String(port)])
        let (status, screen) = try await session.finished(within: 30)
        #expect(status == 0, "\(screen)")
        #expect(!screen.contains("waiting:"), "the spinner was left on the screen: \(screen)")
        await server.stop()

        // In a pipe: a note per try, no spinner.
        let closed = try HTTPPorts.closed()
        let piped = try await home.conn(["probe", "--wait", "1s", "127.0.0.1:\(closed)"])
        #expect(piped.exitCode == 75)
        #expect(piped.standardError.contains("next try in") && !piped.standardError.contains("\r") && !piped.standardError.contains(" of 1s "),
                "\(piped.standardError)")
    }

    @Test("send --wait with the server down: the spinner says the message is not sent yet; it is gone once the server takes it")
    func sendWait() async throws {
        let port = try HTTPPorts.outsideAutomaticRange()
        let url = URL(string: "http://127.0.0.1:\(port)")!
        let session = try home.terminal(["send", "--to", "ann@example.com", "--subject", "waiting", "--text", "hi", "--wait", "40s"], server: url)
        var spinning: [String] = []
        _ = try await lastLines(session) { screen in
            if let last = screen.split(separator: "\n").last.map(String.init),
                last.contains("s of 40s  ") && last.contains("not sent yet"), spinning.last != last { spinning.append(last) }
            return spinning.count >= 3
        }
        let server = try await BackgroundServer.start(["--port", String(port)])
        let (status, screen) = try await session.finished(within: 30)
        #expect(status == 0, "\(screen)")
        #expect(!screen.contains("not sent yet"), "the spinner was left on the screen: \(screen)")
        #expect(screen.contains("sent"), "\(screen)")
        await server.stop()
    }
}
