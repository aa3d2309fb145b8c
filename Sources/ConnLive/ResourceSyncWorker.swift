import ConnCore
import ConnRequest
import Foundation
import Logging

/// The live session's refresh of the `sync:` resources (`conn get`'s copies): one refresh at a
/// time, in its own task; requests that arrive while one runs fold into one next refresh.
public struct ResourceSyncWorker: Sendable {
    private let wakeUps: AsyncStream<Void>.Continuation
    private let task: Task<Void, Never>

    public init(sync: ResourceSync, configuration: ConnConfiguration, logger: Logger, report: @escaping @Sendable (ResourceSyncResult) -> Void) {
        let (stream, wakeUps) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        self.wakeUps = wakeUps
        task = Task {
            let transport = HTTPTransport(configuration: configuration, logger: logger)
            for await _ in stream {
                if Task.isCancelled { break }
                report(await sync.refresh(over: transport))
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
