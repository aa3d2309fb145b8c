import ConnCore
import ConnInbox
import Foundation
import Logging
import Synchronization

/// The agent's inbox sync: one conditional fetch at a time, in its own task (a sync never holds
/// up delivery); requests that arrive while one runs fold into one next fetch.
struct InboxSyncWorker: Sendable {
    private let wakeUps: AsyncStream<Void>.Continuation
    private let task: Task<Void, Never>

    init(fetcher: InboxFetcher, configuration: ConnConfiguration, logger: Logger, report: @escaping @Sendable (AgentStatus.Sync) -> Void) {
        let (stream, wakeUps) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        self.wakeUps = wakeUps
        task = Task {
            let transport = HTTPTransport(configuration: configuration, logger: logger)
            for await _ in stream {
                do {
                    let outcome = try await fetcher.fetch(over: transport, logger: logger)
                    report(AgentStatus.Sync(at: Date(), ok: true, new: outcome.summary.new, updated: outcome.summary.updated,
                                            notModified: outcome.notModified, error: nil))
                } catch is CancellationError {
                    break
                } catch {
                    let message = (error as? ConnError)?.message ?? "\(error)"
                    report(AgentStatus.Sync(at: Date(), ok: false, new: 0, updated: 0, notModified: false, error: message))
                }
            }
            try? await transport.shutdown()
        }
    }

    func request() { wakeUps.yield() }

    func stop() async {
        wakeUps.finish()
        task.cancel()
        await task.value
    }
}
