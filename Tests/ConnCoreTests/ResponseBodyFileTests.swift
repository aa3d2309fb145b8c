import ConnCore
import ConnTestSupport
import Foundation
import Logging
import Synchronization
import Testing

@Suite("An answer's body written to a file")
struct ResponseBodyFileTests {
    let logger = Logger(label: "test")

    /// The file's bytes, read back through its descriptor.
    private func contents(of file: ResponseBodyFile) -> Data {
        var data = Data(count: file.size)
        let read = data.withUnsafeMutableBytes { pread(file.descriptor, $0.baseAddress, file.size, 0) }
        return data.prefix(max(0, read))
    }

    @Test("the body lands whole in the file and not in memory; a redirect's own page is not part of it; the file has no name in its directory")
    func bodyGoesToTheFile() async throws {
        let document = String(repeating: "0123456789abcdef", count: 64 * 1024)  // 1 MiB: many chunks
        let routes: [BadServer.Route] = [
            BadServer.Route(method: "GET", path: "/inbox", status: 302, headers: [["Location", "/v2/inbox"]], body: "<html>moved to /v2/inbox</html>"),
            .answer("GET", "/v2/inbox", status: 200, body: document),
        ]
        try await BadServer.with(routes) { server in
            let directory = try TemporaryDirectory()
            let transport = HTTPTransport(timeout: .seconds(30), credentials: nil, trust: .system, logger: logger)
            var request = HTTPExchangeRequest(url: server.url.appendingPathComponent("inbox"))
            let file = try ResponseBodyFile(in: directory.path)
            request.bodyFile = file
            let received = Mutex(0)
            request.onBodyProgress = { bytes, _ in received.withLock { $0 = bytes } }
            let response = try await transport.send(request)
            try await transport.shutdown()
            #expect(response.status == 200)
            #expect(response.body.isEmpty)
            #expect(response.receivedBodyBytes == document.utf8.count)
            #expect(received.withLock { $0 } == document.utf8.count)
            #expect(contents(of: file) == Data(document.utf8), "the file holds other bytes than the answer (the redirect's page?)")
            // Unlinked as soon as made: nothing is left behind by a crash.
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        }
    }

    @Test("an answer larger than the limit is refused even though it goes to a file")
    func limitHolds() async throws {
        let routes: [BadServer.Route] = [.answer("GET", "/inbox", status: 200, body: String(repeating: "x", count: 200_000))]
        try await BadServer.with(routes) { server in
            let directory = try TemporaryDirectory()
            let transport = HTTPTransport(timeout: .seconds(30), credentials: nil, trust: .system, logger: logger)
            var request = HTTPExchangeRequest(url: server.url.appendingPathComponent("inbox"), maxResponseBytes: 100_000)
            request.bodyFile = try ResponseBodyFile(in: directory.path)
            let error = await #expect(throws: ConnError.self) { try await transport.send(request) }
            try await transport.shutdown()
            #expect(error?.code == .responseTooLarge)
        }
    }

    @Test("a directory the file cannot be made in is a clear error")
    func unusableDirectory() throws {
        let directory = try TemporaryDirectory()
        let blocked = directory.path + "/file"
        try Data("x".utf8).write(to: URL(fileURLWithPath: blocked))
        let error = #expect(throws: ConnError.self) { try ResponseBodyFile(in: blocked + "/below") }
        #expect(error?.code == .directoryUnavailable)
        #expect(error?.exitStatus == .ioError)
    }
}
