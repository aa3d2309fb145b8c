import ConnCore
import ConnInbox
import Foundation
import Logging

/// The live session's inbox sync: one conditional fetch at a time (`FoldingWorker`).
public struct InboxSyncWorker: Sendable {
    private let worker: FoldingWorker

    public init(fetcher: InboxFetcher, configuration: ConnConfiguration, logger: Logger, report: @escaping @Sendable (InboxSyncResult) -> Void) {
        worker = FoldingWorker(configuration: configuration, logger: logger) { transport in
            do {
                let outcome = try await fetcher.fetch(over: transport, logger: logger)
                report(InboxSyncResult(at: Date(), ok: true, new: outcome.summary.new, updated: outcome.summary.updated,
                                        notModified: outcome.notModified, error: nil))
            } catch is CancellationError {
                return  // stopping: nothing to report
            } catch {
                let message = (error as? ConnError)?.message ?? "\(error)"
                report(InboxSyncResult(at: Date(), ok: false, new: 0, updated: 0, notModified: false, error: message))
            }
        }
    }

    public func request() { worker.request() }

    public func stop() async { await worker.stop() }
}
