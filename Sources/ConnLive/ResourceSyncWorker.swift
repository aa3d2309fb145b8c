import ConnCore
import ConnRequest
import Foundation
import Logging

/// The live session's refresh of the `sync:` resources (`conn get`'s copies): one refresh at a
/// time (`FoldingWorker`).
public struct ResourceSyncWorker: Sendable {
    private let worker: FoldingWorker

    public init(sync: ResourceSync, configuration: ConnConfiguration, logger: Logger, report: @escaping @Sendable (ResourceSyncResult) -> Void) {
        worker = FoldingWorker(configuration: configuration, logger: logger) { transport in
            let result = await sync.refresh(over: transport)
            if !Task.isCancelled { report(result) }
        }
    }

    public func request() { worker.request() }

    public func stop() async { await worker.stop() }
}
