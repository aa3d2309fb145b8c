import ConnAgent
import ConnCore
import Foundation
import Synchronization

/// The running agent as `conn top`'s source: its status, asked once a second over the control
/// socket (on a thread of its own: the ask blocks for up to a second). Two unanswered asks in a
/// row and the agent is taken for gone (`onLost`), so top can go on with a monitor of its own.
final class AgentTopSource: TopSource {
    let name: String
    private let place: AgentPlace
    private let running = Running()

    private final class Running: Sendable {
        private let value = Mutex(true)
        var isOn: Bool { value.withLock { $0 } }
        func stop() { value.withLock { $0 = false } }
    }

    /// The agent's status now, or nil when none answers at `place`.
    static func status(at place: AgentPlace) -> AgentStatus? {
        guard let answer = AgentClient.ask(.status, at: place) else { return nil }
        return try? JSONOutput.decoder().decode(AgentStatus.self, from: Data(answer.utf8))
    }

    init(place: AgentPlace, first: AgentStatus, onSample: @escaping @Sendable (TopSample) -> Void, onLost: @escaping @Sendable () -> Void) {
        self.place = place
        name = "agent pid \(first.pid)"
        onSample(Self.sample(first))
        let running = running
        let thread = Thread {
            var misses = 0
            while running.isOn {
                Thread.sleep(forTimeInterval: 1)
                guard running.isOn else { return }
                if let status = Self.status(at: place) {
                    misses = 0
                    onSample(Self.sample(status))
                } else {
                    misses += 1
                    if misses >= 2 {
                        running.stop()
                        onLost()
                    }
                }
            }
        }
        thread.name = "conn-top-agent"
        thread.start()
    }

    func probeNow() {
        let place = place
        Thread.detachNewThread { _ = AgentClient.ask(.look, at: place) }
    }

    func stop() async {
        running.stop()
    }

    static func sample(_ status: AgentStatus) -> TopSample {
        var sample = TopSample(at: Date())
        sample.network = status.network
        sample.link = status.connectionState
        sample.outbox = .init(pending: status.outbox.pending, sending: status.outbox.sending, sent: status.outbox.sent, failed: status.outbox.failed)
        if let clock = status.clockOffset {
            sample.clock = .init(offsetMs: clock.offsetMs, uncertaintyMs: clock.uncertaintyMs, measuredAt: clock.measuredAt)
        }
        if let targets = status.targets, let at = status.lookedAt { sample.look = (targets, at) }
        return sample
    }
}
