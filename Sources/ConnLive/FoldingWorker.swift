import ConnCore
import Foundation
import Logging

/// A job of the live session that runs one at a time, in its own task (it never holds up
/// delivery), over an HTTP transport of its own; requests that arrive while one runs fold into
/// one next run. The inbox sync and the `sync:` resources are two.
struct FoldingWorker: Sendable {
    private let wakeUps: AsyncStream<Void>.Continuation
    private let task: Task<Void, Never>

    init(configuration: ConnConfiguration, logger: Logger, job: @escaping @Sendable (HTTPTransport) async -> Void) {
        let (stream, wakeUps) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        self.wakeUps = wakeUps
        task = Task {
            let transport = HTTPTransport(configuration: configuration, logger: logger)
            for await _ in stream {
                await job(transport)
                if Task.isCancelled { break }
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
