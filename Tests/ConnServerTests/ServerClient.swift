import AsyncHTTPClient
import ConnProtocol
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// A thin HTTP client for the server tests: one request, whole answer, with a deadline.
struct ServerClient {
    let base: URL

    struct Answer {
        let status: Int
        let headers: HTTPHeaders
        let body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try JSONDecoder().decode(type, from: body) }
        var errorCode: String? { (try? decode(APIErrorBody.self))?.error.code }
    }

    func request(_ method: HTTPMethod = .GET, _ path: String, headers: [(String, String)] = [], body: Data? = nil,
                 timeout: TimeAmount = .seconds(10)) async throws -> Answer {
        var request = HTTPClientRequest(url: base.absoluteString + path)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await HTTPClient.shared.execute(request, timeout: timeout)
        let bytes = try await response.body.collect(upTo: 256 << 20)
        return Answer(status: Int(response.status.code), headers: response.headers, body: Data(buffer: bytes))
    }

    func post(_ submission: MessageSubmission, key: String = UUID().uuidString, headers: [(String, String)] = []) async throws -> Answer {
        try await request(.POST, "/messages", headers: [("Idempotency-Key", key), ("Content-Type", "application/json")] + headers,
                          body: try JSONEncoder().encode(submission))
    }

    func inbox(headers: [(String, String)] = []) async throws -> [Email] {
        try await request(.GET, "/inbox", headers: headers).decode(InboxDocument.self).inbox
    }
}

/// Seed 003's example, verbatim.
let seedExample = """
    {
        "inbox": [
        {
            "uid": "1",
            "from": "matt@gmail.com",
            "to": "jhon@gmail.com",
            "subject": "subject 1",
            "text": "1) Lorem Ipsum is simply dummy text of the printing and typesetting industry.",
            "responseToUid": "",
            "dateTime": "Today"
        }
        ]
    }
    """
