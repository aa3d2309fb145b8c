import ConnTestSupport
import Foundation
import Testing

/// `conn probe --format prometheus` as node_exporter's textfile collector reads it, judged by
/// promtool; the format refused by every other command.
@Suite("conn probe --format prometheus")
struct ProbePrometheusTests {
    static let promtool = TestTools.promtool

    @Test("the state and each target's families, promtool accepts them; 69 when a target is down, as in every format")
    func textfileCollector() async throws {
        let home = try TemporaryDirectory()
        try await ServerProcess.with { url in
            let closed = "http://127.0.0.1:\(try HTTPPorts.closed())/health"
            let live = "\(url.absoluteString)/health"
            let outcome = try await home.conn(["probe", "--format", "prometheus", live, closed])
            #expect(outcome.exitCode == 69, "\(outcome.standardError)")
            let text = outcome.standardOutput
            #expect(text.contains(#"conn_probe_success{target="\#(live)"} 1.0"#), "\(text)")
            #expect(text.contains(#"conn_probe_success{target="\#(closed)"} 0.0"#), "\(text)")
            #expect(text.contains(#"conn_connectivity_state{state="serverUnreachable"} 1.0"#), "\(text)")
            #expect(text.contains(#"conn_connectivity_reason_info{reason="refused"} 1.0"#), "\(text)")
            #expect(text.contains("conn_probe_timestamp_seconds "))
            #expect(TestTools.acceptable(Self.promtool), "promtool (Debian's prometheus) is missing under .ci/run")
            if let promtool = Self.promtool {
                let checked = try await ConnProcess.run(promtool, ["check", "metrics"], environment: [:], input: text)
                #expect(checked.exitCode == 0, "\(checked.standardOutput) \(checked.standardError)")
            }
            let up = try await home.conn(["probe", "--format", "prometheus", live])
            #expect(up.exitCode == 0 && up.standardOutput.contains(#"conn_connectivity_state{state="online"} 1.0"#), "\(up.standardOutput)")
        }
    }

    @Test("every other command refuses it with 64, from the flag, CONN_FORMAT or the config file")
    func otherCommandsRefuse() async throws {
        let home = try TemporaryDirectory()
        let flag = try await home.conn(["inbox", "list", "--format", "prometheus"])
        #expect(flag.exitCode == 64 && flag.standardError.contains("--format prometheus is written by conn probe only"), "\(flag.standardError)")
        let variable = try await home.conn(["config", "show"], env: ["CONN_FORMAT": "prometheus"])
        #expect(variable.exitCode == 64 && variable.standardError.contains("CONN_FORMAT"), "\(variable.standardError)")
        #expect(variable.standardOutput.isEmpty)
    }
}
