import ConnProtocol
import ConnServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Testing

/// conn-server's routes in-process, through HummingbirdTesting's router client: the protocol's
/// answers without a process or a socket. `ServerEndpointTests` drives the real binary.
@Suite("conn-server routes in-process")
struct ServerRoutesTests {
    static func application(_ configure: (inout ServerOptions) -> Void = { _ in }) throws -> some ApplicationProtocol {
        var options = ServerOptions()
        configure(&options)
        let server = try ConnServer(options: options, logger: Logger(label: "conn-server-test"))
        return Application(router: server.routes())
    }

    static let key = "7C9E6679-7425-40DE-944B-E07FC1F90AE7"

    static func submission(_ subject: String) -> ByteBuffer {
        ByteBuffer(string: #"{"to":"ann@conn.example","subject":"\#(subject)","text":"hi","responseToUid":""}"#)
    }

    static func post(_ client: some TestClientProtocol, key: String?, body: ByteBuffer) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let key { headers[HTTPField.Name(ConnProtocol.idempotencyKeyHeader)!] = key }
        return try await client.execute(uri: "/messages", method: .post, headers: headers, body: body)
    }

    static func errorCode(_ response: TestResponse) -> String? {
        struct Body: Decodable { struct Error: Decodable { let code: String }; let error: Error }
        return try? JSONDecoder().decode(Body.self, from: Data(buffer: response.body)).error.code
    }

    @Test("a message is stored once per Idempotency-Key (in any case); a replay says so; another body under the key is 422")
    func idempotency() async throws {
        try await Self.application().test(.router) { client in
            let first = try await Self.post(client, key: Self.key, body: Self.submission("one"))
            #expect(first.status == .created)
            let accepted = try JSONDecoder().decode(MessageAccepted.self, from: Data(buffer: first.body))
            #expect(accepted.idempotencyKey == Self.key.lowercased() && accepted.message.subject == "one")

            let replay = try await Self.post(client, key: Self.key.lowercased(), body: Self.submission("one"))
            #expect(replay.status == .created)
            #expect(replay.headers[HTTPField.Name(ConnProtocol.replayedHeader)!] == "true")
            #expect(try JSONDecoder().decode(MessageAccepted.self, from: Data(buffer: replay.body)).uid == accepted.uid)

            let reused = try await Self.post(client, key: Self.key, body: Self.submission("two"))
            #expect(reused.status == .unprocessableContent && Self.errorCode(reused) == "idempotencyKeyReused")

            let inbox = try await client.execute(uri: "/inbox", method: .get)
            let stored = try JSONDecoder().decode(InboxDocument.self, from: Data(buffer: inbox.body)).inbox
            #expect(stored.filter { $0.subject == "one" }.count == 1 && !stored.contains { $0.subject == "two" })
        }
    }

    @Test("bad submissions: no key, a key that is not a UUID, bad JSON, a bad address, too large — each its status and code")
    func badSubmissions() async throws {
        try await Self.application { $0.maxBodyBytes = 256 }.test(.router) { client in
            let cases: [(key: String?, body: ByteBuffer, status: HTTPResponse.Status, code: String)] = [
                (nil, Self.submission("x"), .badRequest, "missingIdempotencyKey"),
                ("not-a-uuid", Self.submission("x"), .badRequest, "invalidIdempotencyKey"),
                (UUID().uuidString, ByteBuffer(string: "{"), .badRequest, "malformedJSON"),
                (UUID().uuidString, ByteBuffer(string: #"{"to":"nobody","subject":"s","text":"t","responseToUid":""}"#), .unprocessableContent, "invalidAddress"),
                (UUID().uuidString, ByteBuffer(string: String(repeating: " ", count: 300)), .contentTooLarge, "bodyTooLarge"),
            ]
            for (key, body, status, code) in cases {
                let response = try await Self.post(client, key: key, body: body)
                #expect(response.status == status && Self.errorCode(response) == code, "\(code): \(response.status)")
            }
        }
    }

    @Test("the inbox carries an ETag and answers 304 to it, also weak or among others")
    func inboxETag() async throws {
        try await Self.application { $0.generateCount = 5 }.test(.router) { client in
            let first = try await client.execute(uri: "/inbox", method: .get)
            #expect(first.status == .ok)
            #expect(try JSONDecoder().decode(InboxDocument.self, from: Data(buffer: first.body)).inbox.count == 5)
            let etag = try #require(first.headers[.eTag])
            for tags in [etag, "W/" + etag, "\"other\", " + etag] {
                let again = try await client.execute(uri: "/inbox", method: .get, headers: [.ifNoneMatch: tags])
                #expect(again.status == .notModified, "\(tags)")
            }
            let changed = try await client.execute(uri: "/inbox", method: .get, headers: [.ifNoneMatch: "\"other\""])
            #expect(changed.status == .ok)
        }
    }

    @Test("with a token: every resource but /health needs it; the bearer scheme in any case; a wrong one is 401 JSON")
    func token() async throws {
        try await Self.application { $0.token = "s3cret" }.test(.router) { client in
            #expect(try await client.execute(uri: "/health", method: .get).status == .noContent)
            let refused = try await client.execute(uri: "/inbox", method: .get, headers: [.authorization: "Bearer wrong"])
            #expect(refused.status == .unauthorized && Self.errorCode(refused) == "unauthorized")
            #expect(try await client.execute(uri: "/time", method: .get).status == .unauthorized)
            for scheme in ["Bearer", "bearer", "BEARER"] {
                let accepted = try await client.execute(uri: "/inbox", method: .get, headers: [.authorization: "\(scheme) s3cret"])
                #expect(accepted.status == .ok, "\(scheme)")
            }
        }
    }

    @Test("/time: t2 then t3, the skewed clock, not cached")
    func time() async throws {
        try await Self.application { $0.faults.skewMS = 86_400_000 }.test(.router) { client in
            let before = Date().timeIntervalSince1970 * 1000
            let response = try await client.execute(uri: "/time", method: .get)
            let after = Date().timeIntervalSince1970 * 1000
            let sample = try JSONDecoder().decode(TimeSample.self, from: Data(buffer: response.body))
            #expect(sample.t2 <= sample.t3)
            #expect((before + 86_400_000 - 0.002...after + 86_400_000 + 0.002).contains(sample.t2), "\(sample.t2)")
            // Microseconds, and the old integer form still reads.
            let fractional = try JSONDecoder().decode(TimeSample.self, from: Data(#"{"t2": 1795380311432.125, "t3": 1795380311432.5}"#.utf8))
            #expect(fractional == TimeSample(t2: 1_795_380_311_432.125, t3: 1_795_380_311_432.5))
            let whole = try JSONDecoder().decode(TimeSample.self, from: Data(#"{"t2": 1795380311432, "t3": 1795380311433}"#.utf8))
            #expect(whole == TimeSample(t2: 1_795_380_311_432, t3: 1_795_380_311_433))
            #expect(response.headers[.cacheControl] == "no-store")
        }
    }
}
