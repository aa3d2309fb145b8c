import ConnCore
import ConnInbox
import Foundation
import Logging
import Synchronization

/// The live session's inbox sync: one conditional fetch at a time, in its own task (a sync never holds
/// up delivery); requests that arrive while one runs fold into one next fetch.
public struct InboxSyncWorker: Sendable {
    private let wakeUps: AsyncStream<Void>.Continuation
    private let task: Task<Void, Never>

    public init(fetcher: InboxFetcher, configuration: ConnConfiguration, logger: Logger, report: @escaping @Sendable (InboxSyncResult) -> Void) {
        let (stream, wakeUps) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        self.wakeUps = wakeUps
        task = Task {
            let transport = HTTPTransport(configuration: configuration, logger: logger)
            for await _ in stream {
                do {
                    let outcome = try await fetcher.fetch(over: transport, logger: logger)
                    report(InboxSyncResult(at: Date(), ok: true, new: outcome.summary.new, updated: outcome.summary.updated,
                                            notModified: outcome.notModified, error: nil))
                } catch is CancellationError {
                    break
                } catch {
                    let message = (error as? ConnError)?.message ?? "\(error)"
                    report(InboxSyncResult(at: Date(), ok: false, new: 0, updated: 0, notModified: false, error: message))
                }
            }
            try? await transport.shutdown()
        }
    }

    public func request() { wakeUps.yield() }

    public func stop() async {
        wakeUps.finish()
        task.cancel()
        await task.value
    }
}
