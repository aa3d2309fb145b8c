import ConnCore
import ConnTestSupport
import Foundation
import Testing

/// The live link's ConnectionState as the API it follows defines it, over a real link to the
/// real conn-server: `disconnected(isInitializing: true)` on every (re)enable, `isInitializing:
/// false` as soon as an attempt concludes, the last offset kept through drops and re-enables.
@Suite("ConnectionState transitions")
struct ConnectionStateTransitionsTests {
    /// One ConnectionState, reduced to what the rules are about.
    struct Link: Equatable, CustomStringConvertible {
        var connected: Bool
        var initializing: Bool
        var offsetKnown: Bool

        static let connecting = Link(connected: false, initializing: true, offsetKnown: false)
        static let failed = Link(connected: false, initializing: false, offsetKnown: false)
        static let up = Link(connected: true, initializing: false, offsetKnown: true)
        static let dropped = Link(connected: false, initializing: false, offsetKnown: true)
        static let reconnecting = Link(connected: false, initializing: true, offsetKnown: true)

        init(connected: Bool, initializing: Bool, offsetKnown: Bool) {
            self.connected = connected
            self.initializing = initializing
            self.offsetKnown = offsetKnown
        }

        init?(_ object: Any?) {
            guard let state = object as? [String: Any], let status = state["status"] as? String else { return nil }
            self.init(connected: status == "connected", initializing: state["isInitializing"] as? Bool ?? false,
                      offsetKnown: state["backEndTimeOffsetMs"] is Int)
        }

        var description: String {
            connected ? "connected(offset)" : "disconnected(\(offsetKnown ? "offset" : "nil"), isInitializing: \(initializing))"
        }
    }

    let home: TemporaryDirectory

    init() throws { home = try TemporaryDirectory() }

    /// The link's states in a watch's events, in order: the one the baseline carries (the link's
    /// first, when it began before the first look ended), then each connectionState line's.
    static func links(_ watcher: WatchProcess) -> [Link] {
        watcher.events.filter { ["baseline", "connectionState"].contains($0["type"] as? String ?? "") }.compactMap { Link($0["connectionState"]) }
    }

    static func awaitLinks(_ watcher: WatchProcess, count: Int, seconds: Double = 10) async throws -> [Link] {
        _ = try await watcher.await(seconds) { _ in links(watcher).count >= count }
        return links(watcher)
    }

    @Test("server down at start, then up, killed and back: connecting once, failed at once, up, dropped with the offset kept, up")
    func serverLifecycle() async throws {
        let port = try HTTPPorts.outsideAutomaticRange()
        let url = "http://127.0.0.1:\(port)"
        let watcher = try WatchProcess(ConnProcess.connPath, ["watch", "--json", "--no-internet", "--interval", "60s"],
                                       environment: home.environment.merging(["CONN_SERVER": url]) { $1 })
        // The table: each step, then the states it must add.
        let firstTwo = try await Self.awaitLinks(watcher, count: 2)
        #expect(firstTwo == [.connecting, .failed], "a failed first attempt ends isInitializing at once")
        // Failed retries are not news: no state repeats while the server stays away.
        try await Task.sleep(for: .seconds(1))
        #expect(Self.links(watcher).count == 2, "\(Self.links(watcher))")

        let server = try await BackgroundServer.start(["--port", String(port)])
        #expect(try await Self.awaitLinks(watcher, count: 3, seconds: 15).last == .up)
        server.signal(SIGKILL)
        await server.stop()
        #expect(try await Self.awaitLinks(watcher, count: 4).last == .dropped, "the offset is kept; stderr: \(watcher.errorOutput.suffix(3000))")
        let restarted = try await BackgroundServer.start(["--port", String(port)])
        let all = try await Self.awaitLinks(watcher, count: 5, seconds: 15)
        // A reconnect is not a re-enable: no isInitializing, straight back up.
        #expect(all == [.connecting, .failed, .up, .dropped, .up], "\(all)")
        #expect(await watcher.stop() == 143)
        await restarted.stop()
    }

    @Test("in the REPL: disconnect drops the link; connect starts initializing again from the offset last seen")
    func replDisconnectConnect() async throws {
        let server = try await BackgroundServer.start()
        let repl = try WatchProcess(ConnProcess.connPath, ["repl", "--json"],
                                    environment: home.environment.merging(["CONN_SERVER": server.url.absoluteString]) { $1 }, input: true)
        func statusUntil(_ seconds: Double, _ predicate: @escaping (Link?) -> Bool) async throws -> [String: Any]? {
            let deadline = Date().addingTimeInterval(seconds)
            while true {
                let seen = repl.events.count
                try repl.send("status")
                guard let answer = try await repl.await(30, { _ in repl.events.count > seen }) != nil ? repl.events.last : nil else { return nil }
                if predicate(Link(answer["connectionState"])) { return answer }
                if Date() >= deadline { return nil }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        _ = try #require(try await statusUntil(30) { $0 == .up }, "\(repl.events)")
        try repl.send("disconnect")
        let off = try #require(try await statusUntil(30) { $0 == nil })
        #expect(off["linkEnabled"] as? Bool == false && off["connectionState"] is NSNull)
        let connectAt = repl.events.count
        // The server frozen, the attempt that connect starts cannot conclude (its upgrade waits),
        // so the state it shows first is certainly the initializing one, the offset kept.
        server.signal(SIGSTOP)
        try repl.send("connect")
        let first = try #require(try await statusUntil(30) { $0 != nil }, "\(repl.events)")
        #expect(Link(first["connectionState"]) == .reconnecting, "\(first)")
        server.signal(SIGCONT)
        _ = try #require(try await statusUntil(30) { $0 == .up })
        let afterConnect = repl.events.dropFirst(connectAt).compactMap { Link($0["connectionState"]) }
        #expect(afterConnect.allSatisfy { $0.offsetKnown }, "an offset once known is not forgotten: \(afterConnect)")
        try repl.closeInput()
        let ended = Date()
        let status = await repl.process.exited(killingAfter: 60)
        #expect(status == 0, "status \(status) after \(Date().timeIntervalSince(ended)) s; stderr: \(repl.errorOutput.suffix(3000))")
        await server.stop()
    }
}
