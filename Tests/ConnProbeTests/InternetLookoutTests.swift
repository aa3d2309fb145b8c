@testable import ConnProbe
import ConnCore
import ConnTestSupport
import Foundation
import Synchronization
import Testing

/// A monitor's look is judged when its targets are: an internet check that has not answered
/// goes on alone, its end asks for the next look, which shows what it found and starts no check
/// of its own. Each moment here is one the test makes: a check that ends when the test says.
@Suite("the internet check beside the targets")
struct InternetLookoutTests {
    @Test("one check at a time: a look while it runs joins it; its end calls back once; the next look takes its verdict and starts none; the look after starts a new one")
    func lookout() async throws {
        let lookout = InternetLookout()
        let started = Mutex(0)
        let (gate, opens) = AsyncStream<Void>.makeStream()
        let verdict = InternetVerdict(state: .limited, explanation: "no endpoint answered", ipv4: false, ipv6: nil)
        let check: @Sendable () async -> InternetVerdict = {
            started.withLock { $0 += 1 }
            for await _ in gate { break }
            return verdict
        }
        #expect(lookout.begin(check) == nil, "the first look starts the check")
        #expect(lookout.begin(check) == nil, "a look while it runs joins it")
        let (settled, settles) = AsyncStream<Void>.makeStream()
        let reading = lookout.end(onSettled: { settles.yield() })
        #expect(reading.verdict == nil)
        try #require(reading.pending)
        opens.yield()
        var iterator = settled.makeAsyncIterator()
        await iterator.next()
        #expect(lookout.begin(check) == verdict, "the look after the end shows its verdict")
        #expect(started.withLock { $0 } == 1, "one check for all of them")
        #expect(lookout.begin(check) == nil, "the look after that starts a new one")
        let second = await poll(for: 10, every: .milliseconds(10)) { started.withLock { $0 } == 2 ? true : nil }
        #expect(second == true)
        opens.finish()
    }

    @Test("against conn-server and a check that never answers until the test closes it: the look ends with the server's answer (internet pending), the next shows the check's verdict; probe's one-off look waits for the check")
    func silentCheckDoesNotHoldTheTargets() async throws {
        try await ServerProcess.with { url in
            let silent = try LoopbackListener()
            let endpoint = try InternetEndpoint.parse("http://127.0.0.1:\(silent.port)/generate_204=204")
            // The check's own deadline is a minute: it ends when the listener closes, not before.
            let check = ConnectivityCheck(targets: [try ProbeTarget.parse("\(url.absoluteString)/health")], internetEndpoints: [endpoint],
                                          internetRequired: false, timeout: .seconds(60), trust: .system, credentials: nil)
            let (settled, settles) = AsyncStream<Void>.makeStream()
            let first = await check.run(onInternetSettled: { settles.yield() })
            #expect(first.internet == nil && first.networkState.state == .online, "\(first)")
            // No wait below for a callback that was never asked for.
            try #require(first.internetPending, "\(first)")
            silent.close()  // the waiting connection is reset: the check ends
            var iterator = settled.makeAsyncIterator()
            await iterator.next()
            let second = await check.run(onInternetSettled: { settles.yield() })
            #expect(!second.internetPending && second.internet != nil && second.internet?.state != .online, "\(second)")
            let oneOff = await check.run()
            #expect(!oneOff.internetPending && oneOff.internet != nil, "\(oneOff)")
        }
    }
}
