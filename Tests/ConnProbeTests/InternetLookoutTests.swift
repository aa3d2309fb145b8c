@testable import ConnProbe
import ConnCore
import ConnTestSupport
import Foundation
import Testing

/// A monitor's look is judged when its targets are: an internet check that does not answer (a
/// listener that never accepts, as a firewall that drops the check's packets) goes on alone,
/// its end asks for the next look, which shows what it found and starts no check of its own.
@Suite("the internet check beside the targets")
struct InternetLookoutTests {
    @Test("a silent internet check: the look ends with the targets (internet pending), its end calls back, the next look shows its verdict and starts none, the one after starts a new one; probe's one-off look still waits for it")
    func silentCheckDoesNotHoldTheTargets() async throws {
        try await ServerProcess.with { url in
            let silent = try LoopbackListener()
            defer { silent.close() }
            let endpoint = try InternetEndpoint.parse("http://127.0.0.1:\(silent.port)/generate_204=204")
            let check = ConnectivityCheck(targets: [try ProbeTarget.parse("\(url.absoluteString)/health")], internetEndpoints: [endpoint],
                                          internetRequired: false, timeout: .milliseconds(800), trust: .system, credentials: nil)
            let (settled, settles) = AsyncStream<Void>.makeStream()
            let first = await check.run(onInternetSettled: { settles.yield() })
            // Judged without the check: the server's answer, the internet not known yet.
            #expect(first.internetPending && first.internet == nil && first.networkState.state == .online, "\(first)")
            var iterator = settled.makeAsyncIterator()
            await iterator.next()  // the check's own deadline (0.8 s) has passed
            let second = await check.run(onInternetSettled: { settles.yield() })
            #expect(!second.internetPending && second.internet != nil, "\(second)")
            #expect(second.internet?.state != .online, "a check that never answered is not online: \(String(describing: second.internet))")
            let third = await check.run(onInternetSettled: { settles.yield() })
            #expect(third.internetPending, "a new check runs for the look after: \(third)")
            // probe's look (no callback): waits for the check, as a one-off answer must.
            let oneOff = await check.run()
            #expect(!oneOff.internetPending && oneOff.internet != nil)
        }
    }
}
