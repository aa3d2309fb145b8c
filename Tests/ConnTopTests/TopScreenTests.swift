import ConnCore
@testable import ConnProbe
@testable import ConnTop
import Foundation
import Testing

/// `conn top`'s model and layout, without a terminal: what an 80×24 screen, a 10×5 one and an
/// ASCII one show, and how samples and keys change the model.
@Suite("conn top: the model and the screen")
struct TopScreenTests {
    func result(_ target: String, ms: Double, reachable: Bool = true) -> ProbeResult {
        ProbeResult(target: target, kind: "url", url: target, host: "h", port: 80, reachable: reachable, verdict: reachable ? "reachable" : "refused",
                    explanation: "", rungs: [ProbeRung(name: "tcp", ok: reachable, ms: ms / 4, detail: ""), ProbeRung(name: "http", ok: reachable, ms: ms / 2, detail: "")],
                    totalMs: ms)
    }

    func sample(_ state: NetworkStatus, at seconds: Double, look: [ProbeResult]? = nil, link: ConnectionState? = .connected(backEndTimeOffsetMs: 1)) -> TopSample {
        var sample = TopSample(at: Date(timeIntervalSince1970: seconds))
        sample.network = NetworkState(state: state, reason: state == .online ? nil : .refused, since: Date(timeIntervalSince1970: seconds),
                                      interface: InterfaceSummary(name: "wlan0", kind: .wifi, expensive: false), ipv4: true, ipv6: false)
        sample.link = link
        sample.outbox = .init(pending: 2, sending: 0, sent: 5, failed: 1)
        sample.clock = .init(offsetMs: 0.4, uncertaintyMs: 0.7, measuredAt: Date(timeIntervalSince1970: seconds))
        if let look { sample.look = (look, Date(timeIntervalSince1970: seconds)) }
        return sample
    }

    func text(_ rows: [TopScreen.Row]) -> [String] { rows.map { $0.map(\.text).joined() } }

    @Test("80×24: state, path, link and clock, outbox, each target with its latency and sparkline, the rungs, events, the keys; no row wider than 80")
    func fullScreen() {
        var model = TopModel()
        model.server = "https://api.example.com"
        model.source = "own monitor"
        for second in 0..<30 {
            model.apply(sample(.online, at: Double(second), look: [result("https://api.example.com/health", ms: Double(10 + second % 5)),
                                                                   result("db.example:5432", ms: 3, reachable: second % 10 != 0)]))
        }
        model.apply(sample(.serverUnreachable, at: 31, link: .disconnected(backEndTimeOffsetMs: 1, isInitializing: false)))
        let rows = text(TopScreen(columns: 80, rows: 24, unicode: true).render(model, now: Date(timeIntervalSince1970: 40)))
        #expect(rows.count == 24 && rows.allSatisfy { $0.count <= 80 }, "\(rows)")
        let screen = rows.joined(separator: "\n")
        #expect(screen.contains("serverUnreachable") && screen.contains("since") && screen.contains("(9s)"), "\(screen)")
        #expect(screen.contains("wlan0 (wifi)") && screen.contains("IPv4 yes") && screen.contains("IPv6 no") && screen.contains("not expensive"), "\(screen)")
        #expect(screen.contains("link    disconnected") && screen.contains("clock offset 0.4 ms ±0.7 ms (in step, measured"), "\(screen)")
        #expect(screen.contains("2 pending") && screen.contains("1 failed"), "\(screen)")
        #expect(screen.contains("▶ https://api.example.com/health") && screen.contains("db.example:5432"), "\(screen)")
        #expect(screen.contains("×") && screen.contains("█"), "a failed look and the highest bar: \(screen)")
        #expect(screen.contains("tcp ") && screen.contains("http "), "the selected target's rungs: \(screen)")
        #expect(screen.contains("state: online → serverUnreachable (refused)") && screen.contains("link: disconnected"), "\(screen)")
        #expect(rows.last?.hasPrefix("q quit") == true)
    }

    @Test("a target name longer than its column is clipped with two spaces at least before its latency")
    func longTargetName() throws {
        var model = TopModel()
        let long = "https://" + String(repeating: "very-long-name.", count: 8) + "example/health"
        model.apply(sample(.online, at: 1, look: [result(long, ms: 12)]))
        let rows = text(TopScreen(columns: 80, rows: 24, unicode: true).render(model, now: Date(timeIntervalSince1970: 2)))
        let row = try #require(rows.first { $0.hasPrefix("▶ https://very-long") }, "\(rows)")
        #expect(row.contains("…  12ms"), "\(rows)")
    }

    @Test("10×5 says it is too small; an ASCII terminal gets no character outside ASCII, even from a hostile target name")
    func smallAndASCII() {
        var model = TopModel()
        model.apply(sample(.online, at: 0, look: [result("http://evil.example/\u{1B}]0;pwned\u{07}é", ms: 5)]))
        let small = text(TopScreen(columns: 10, rows: 5, unicode: true).render(model, now: Date(timeIntervalSince1970: 1)))
        #expect(small.count == 5 && small[0] == "terminal" && small[1] == "too small:" && small.allSatisfy { $0.count <= 10 }, "\(small)")
        let ascii = text(TopScreen(columns: 80, rows: 24, unicode: false).render(model, now: Date(timeIntervalSince1970: 1))).joined(separator: "\n")
        #expect(ascii.unicodeScalars.allSatisfy { $0.isASCII && ($0.value >= 0x20 || $0 == "\n") }, "\(ascii)")
        #expect(ascii.contains("> http://evil.example/") && ascii.contains("-----"), "\(ascii)")
        let unicode = text(TopScreen(columns: 80, rows: 24, unicode: true).render(model, now: Date(timeIntervalSince1970: 1))).joined()
        #expect(!unicode.contains("\u{1B}") && !unicode.contains("\u{07}"), "no escape reaches the terminal")
    }

    @Test("p holds the model still; arrows select within the targets; a look seen twice is counted once")
    func keysAndLooks() {
        var model = TopModel()
        let look = [result("a:1", ms: 1), result("b:2", ms: 2), result("c:3", ms: 3)]
        model.apply(sample(.online, at: 0, look: look))
        model.apply(sample(.online, at: 0, look: look))  // the agent's status asked twice between looks
        #expect(model.targets.map(\.trace.count) == [1, 1, 1])
        model.select(5)
        #expect(model.selectedTarget?.name == "c:3")
        model.select(-9)
        #expect(model.selectedTarget?.name == "a:1")
        model.paused = true
        model.apply(sample(.offline, at: 5))
        #expect(model.network?.state == .online)
        model.paused = false
        model.apply(sample(.offline, at: 6))
        #expect(model.network?.state == .offline)
        for second in 0..<500 { model.apply(sample(.online, at: Double(10 + second), look: look)) }
        #expect(model.targets[0].trace.count == TopModel.traceLength && model.events.count <= TopModel.eventLimit)
    }

    @Test("the sparkline scales to the largest shown, marks failures, and fits its width")
    func sparkline() {
        #expect(TopScreen.sparkline([1, 2, 4, 8, nil], width: 10, unicode: true) == "▂▃▅█×")
        #expect(TopScreen.sparkline([1, 8, nil], width: 2, unicode: false) == "@x")
        #expect(TopScreen.sparkline([], width: 5, unicode: true) == "")
    }
}
