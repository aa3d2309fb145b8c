import AsyncHTTPClient
import ConnProtocol
import ConnTestSupport
import Foundation
import Testing

@Suite("conn-server endpoints over real HTTP")
struct ServerEndpointTests {
    @Test func healthIs204WithADateHeader() async throws {
        try await ServerProcess.with { url in
            let answer = try await ServerClient(base: url).request(.GET, "/health")
            #expect(answer.status == 204)
            #expect(answer.headers.first(name: "Date")?.hasSuffix(" GMT") == true)
        }
    }

    @Test("the inbox is served exactly in seed 003's schema, with ETag and 304")
    func inboxWithSeedAndETag() async throws {
        let home = try TemporaryDirectory()
        let seed = try home.write("seed.json", seedExample)
        try await ServerProcess.with(["--seed", seed]) { url in
            let client = ServerClient(base: url)
            let answer = try await client.request(.GET, "/inbox")
            #expect(answer.status == 200)
            let document = try answer.decode(InboxDocument.self)
            #expect(document == (try JSONDecoder().decode(InboxDocument.self, from: Data(seedExample.utf8))))
            let raw = try #require(JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
            #expect(Array(raw.keys) == ["inbox"])
            let etag = try #require(answer.headers.first(name: "ETag"))
            let again = try await client.request(.GET, "/inbox", headers: [("If-None-Match", etag)])
            #expect(again.status == 304)
            #expect(again.body.isEmpty)
            // A new message changes the ETag.
            _ = try await client.post(MessageSubmission(to: "a@example.com", subject: "s", text: "t"))
            #expect(try await client.request(.GET, "/inbox", headers: [("If-None-Match", etag)]).status == 200)
        }
    }

    @Test func postedMessageIsStoredOnceAndReplayed() async throws {
        try await ServerProcess.with(["--user-email", "me@example.com"]) { url in
            let client = ServerClient(base: url)
            let key = UUID().uuidString
            let message = MessageSubmission(to: "jhon@gmail.com", subject: "Re: subject 1", text: "hello", responseToUid: "1")
            let first = try await client.post(message, key: key)
            #expect(first.status == 201)
            let accepted = try first.decode(MessageAccepted.self)
            #expect(accepted.message.from == "me@example.com")
            #expect(accepted.message.responseToUid == "1")
            #expect(first.headers.first(name: "Location") == "/messages/\(accepted.uid)")

            let replay = try await client.post(message, key: key)
            #expect(replay.status == 201)
            #expect(replay.body == first.body)
            #expect(replay.headers.first(name: "Idempotent-Replayed") == "true")
            #expect(try await client.inbox().filter { $0.uid == accepted.uid }.count == 1)
            #expect(try await client.inbox().count == 1)

            var other = message
            other.text = "something else"
            let reused = try await client.post(other, key: key)
            #expect(reused.status == 422)
            #expect(reused.errorCode == "idempotencyKeyReused")
        }
    }

    @Test("concurrent requests with one key store exactly one message")
    func concurrentSameKey() async throws {
        try await ServerProcess.with(["--latency-ms", "20"]) { url in
            let client = ServerClient(base: url)
            let key = UUID().uuidString
            let message = MessageSubmission(to: "a@example.com", subject: "race", text: "same key")
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<24 { group.addTask { try await client.post(message, key: key).status } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.contains(201))
            #expect(statuses.allSatisfy { $0 == 201 || $0 == 409 }, "\(statuses)")
            #expect(try await client.inbox().count == 1)
        }
    }

    @Test(arguments: [
        ([("Content-Type", "application/json")], #"{"to":"a@example.com","subject":"s","text":"t"}"#, 400, "missingIdempotencyKey"),
        ([("Idempotency-Key", "not-a-uuid")], #"{"to":"a@example.com","subject":"s","text":"t"}"#, 400, "invalidIdempotencyKey"),
        ([("Idempotency-Key", UUID().uuidString)], #"{"to":"a@example","subject":"s","text":"t"}"#, 422, "invalidAddress"),
        ([("Idempotency-Key", UUID().uuidString)], #"{"to":"a@example.com, bad","subject":"s","text":"t"}"#, 422, "invalidAddress"),
        ([("Idempotency-Key", UUID().uuidString)], #"{"to":"a@example.com","subject":5,"text":"t"}"#, 400, "invalidBody"),
        ([("Idempotency-Key", UUID().uuidString)], #"{"to":"a@example.com","text":"t"}"#, 400, "invalidBody"),
        ([("Idempotency-Key", UUID().uuidString)], #"{"to":"a@exa"#, 400, "malformedJSON"),
        ([("Idempotency-Key", UUID().uuidString)], "<html>", 400, "malformedJSON"),
        ([("Idempotency-Key", UUID().uuidString)], "[1,2]", 400, "malformedJSON"),
    ])
    func badSubmissionsGetClearJSONErrors(_ headers: [(String, String)], _ body: String, _ status: Int, _ code: String) async throws {
        try await ServerProcess.with { url in
            let client = ServerClient(base: url)
            let answer = try await client.request(.POST, "/messages", headers: headers, body: Data(body.utf8))
            #expect(answer.status == status)
            #expect(answer.errorCode == code, "\(answer.text)")
            #expect(try await client.inbox().isEmpty)
        }
    }

    @Test func oversizedBodyIs413AndUnknownPathsAre404JSON() async throws {
        try await ServerProcess.with(["--max-body-bytes", "100"]) { url in
            let client = ServerClient(base: url)
            let big = MessageSubmission(to: "a@example.com", subject: "s", text: String(repeating: "x", count: 500))
            let answer = try await client.post(big)
            #expect(answer.status == 413)
            #expect(answer.errorCode == "bodyTooLarge")
            let missing = try await client.request(.GET, "/nope")
            #expect(missing.status == 404)
            #expect(missing.errorCode == "notFound")
            let wrongMethod = try await client.request(.DELETE, "/inbox")
            #expect((400..<500).contains(wrongMethod.status))
            #expect(wrongMethod.errorCode != nil)
        }
    }

    @Test func timeReportsT2T3WithoutCaching() async throws {
        try await ServerProcess.with { url in
            let before = Date().timeIntervalSince1970 * 1000
            let answer = try await ServerClient(base: url).request(.GET, "/time")
            let after = Date().timeIntervalSince1970 * 1000
            let sample = try answer.decode(TimeSample.self)
            // Microseconds: Date's reading may be up to a microsecond apart from clock_gettime's.
            #expect(sample.t2 >= before - 0.002 && sample.t3 <= after + 0.002 && sample.t2 <= sample.t3, "\(before) \(sample) \(after)")
            #expect(answer.headers.first(name: "Cache-Control") == "no-store")
            #expect(answer.headers.first(name: "Conn-Server-Time") == "t2=\(sample.t2), t3=\(sample.t3)")
        }
    }

    @Test func generatedInboxHasThreadsAndOrphans() async throws {
        try await ServerProcess.with(["--generate", "300"]) { url in
            let inbox = try await ServerClient(base: url).inbox()
            #expect(inbox.count == 300)
            let uids = Set(inbox.map(\.uid))
            #expect(uids.count == 300)
            let replies = inbox.filter { uids.contains($0.responseToUid) }
            let orphans = inbox.filter { !$0.responseToUid.isEmpty && !uids.contains($0.responseToUid) }
            #expect(replies.count > 50)
            #expect(!orphans.isEmpty)
            // Replies to replies: some parent is itself a reply.
            let byUid = Dictionary(uniqueKeysWithValues: inbox.map { ($0.uid, $0) })
            #expect(replies.contains { !(byUid[$0.responseToUid]?.responseToUid.isEmpty ?? true) })
            #expect(inbox.contains { $0.dateTime == "Today" })
            #expect(inbox.allSatisfy { EmailAddress.isValid($0.from) && EmailAddress.isValid($0.to) })
        }
    }

    @Test func dataSurvivesARestart() async throws {
        let home = try TemporaryDirectory()
        let database = home.path + "/server.sqlite"
        let key = UUID().uuidString
        let message = MessageSubmission(to: "a@example.com", subject: "durable", text: "kept")
        let first = try await ServerProcess.with(["--data", database]) { url in
            try await ServerClient(base: url).post(message, key: key)
        }
        #expect(first.status == 201)
        try await ServerProcess.with(["--data", database]) { url in
            let client = ServerClient(base: url)
            #expect(try await client.inbox().map(\.subject) == ["durable"])
            let replay = try await client.post(message, key: key)  // the key is remembered too
            #expect(replay.headers.first(name: "Idempotent-Replayed") == "true")
            #expect(try await client.inbox().count == 1)
        }
    }

    @Test func badSeedFileStopsTheServerWithAClearError() async throws {
        let home = try TemporaryDirectory()
        let seed = try home.write("seed.json", #"{"inbox": [{"uid": 1}]}"#)
        let result = try await ConnProcess.run(ServerProcess.serverPath, ["--port", "0", "--seed", seed], environment: home.environment)
        #expect(result.exitCode == 78)
        #expect(result.standardError.contains("seed file \(seed) is not an inbox document"))
    }
}
