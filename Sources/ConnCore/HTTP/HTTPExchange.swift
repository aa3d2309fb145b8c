import Foundation
import NIOHTTP1

/// One HTTP request as conn's commands describe it, independent of the client library.
public struct HTTPExchangeRequest: Sendable {
    public var method: HTTPMethod
    public var url: URL
    public var headers: [(String, String)]
    public var body: Data?
    /// Overrides the configured timeout for this request only.
    public var timeout: Duration?
    /// Larger answers are refused rather than read into memory.
    public var maxResponseBytes: Int

    public init(
        method: HTTPMethod = .GET, url: URL, headers: [(String, String)] = [], body: Data? = nil,
        timeout: Duration? = nil, maxResponseBytes: Int = 256 * 1024 * 1024
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
    }
}

/// The answer, fully read.
public struct HTTPExchangeResponse: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: Data
    /// From sending the request to the last byte of the answer.
    public var elapsed: Duration

    public init(status: Int, headers: [(String, String)], body: Data, elapsed: Duration) {
        self.status = status
        self.headers = headers
        self.body = body
        self.elapsed = elapsed
    }

    public func header(_ name: String) -> String? {
        headers.first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
    }
}
