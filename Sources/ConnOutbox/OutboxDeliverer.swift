import ConnCore
import ConnProtocol
import Foundation

/// Delivers outbox messages: claims them, posts each with its id as the Idempotency-Key, and
/// records what happened. Several requests run at once over AsyncHTTPClient's kept-alive
/// connections; results are written in batches.
public struct OutboxDeliverer: Sendable {
    public let store: OutboxStore
    public let transport: HTTPTransport
    /// The configured server's messages URL: messages for its origin are taken, and posted to
    /// the URL each was queued for (on that origin), or this one. Nil for `requestsOnly`, which
    /// takes no message.
    public let url: URL?
    public let target: OutboxTarget
    public let owner: LeaseOwner
    /// Requests in flight at once.
    public var concurrency: Int
    /// The deadline of one request.
    public var requestTimeout: Duration
    /// The origin the transport sends the profile's token to (the configured server's; nil:
    /// none): a request there refused with 401 or 403 pauses the queue, as a message does.
    public var tokenOrigin: String?

    /// One attempt and what the server answered worth keeping (a request's answer).
    public struct Attempted: Sendable {
        public var message: OutboxMessage
        public var outcome: DeliveryOutcome
        public var answer: KeptAnswer?
    }

    public init(store: OutboxStore, transport: HTTPTransport, url: URL, owner: LeaseOwner = .current, concurrency: Int = 8, requestTimeout: Duration) {
        self.init(store: store, transport: transport, target: OutboxTarget(messagesURL: url), owner: owner, concurrency: concurrency,
                  requestTimeout: requestTimeout)
    }

    /// A deliverer for `target` (`OutboxTarget.requestsOnly`: no server configured, requests only).
    public init(store: OutboxStore, transport: HTTPTransport, target: OutboxTarget, owner: LeaseOwner = .current, concurrency: Int = 8,
                requestTimeout: Duration) {
        self.store = store
        self.transport = transport
        self.url = target == .requestsOnly ? nil : URL(string: target.messagesURL)
        self.target = target
        self.owner = owner
        self.concurrency = max(1, concurrency)
        self.requestTimeout = requestTimeout
        tokenOrigin = target == .requestsOnly ? nil : target.origin
    }

    /// Messages claimed per transaction.
    var batchSize: Int { concurrency * 8 }

    /// Long enough for a whole batch to run at `concurrency` behind the requests of the batch
    /// before it still in flight, with room to spare. A holder that dies on this host loses its
    /// lease at once anyway (see `LeaseOwner.isCertainlyDead`).
    public var lease: Duration {
        let rounds = Double((batchSize + concurrency - 1) / concurrency + 1)
        return .milliseconds(Int64((rounds * requestTimeout.seconds + 10) * 1000))
    }

    /// One attempt at a message or a request.
    public func attempt(_ message: OutboxMessage) async -> Attempted {
        if message.kind == .request, let request = message.request {
            let (outcome, answer) = await attempt(request, key: message.idempotencyKey)
            return Attempted(message: message, outcome: outcome, answer: answer)
        }
        return Attempted(message: message, outcome: await post(message), answer: nil)
    }

    /// Records how attempts ended, with the answers kept.
    public func record(_ attempts: [Attempted]) throws {
        var answers: [String: KeptAnswer] = [:]
        for attempt in attempts { if let answer = attempt.answer { answers[attempt.message.id] = answer } }
        try store.record(attempts.map { ($0.message, $0.outcome) }, answers: answers, owner: owner, now: Date())
    }

    /// One request from the outbox, to its own URL, exactly as stored, with its key.
    private func attempt(_ request: StoredRequest, key: String) async -> (DeliveryOutcome, KeptAnswer?) {
        guard let url = URL(string: request.url) else {
            return (.rejected(code: "badURL", message: "the stored URL cannot be read", status: 0), nil)
        }
        do {
            var exchange = HTTPExchangeRequest(method: .init(rawValue: request.method), url: url, headers: request.headerFields(key: key), body: request.body,
                                               timeout: requestTimeout, maxResponseBytes: 64 << 20, redirects: RedirectPolicy.none)
            exchange.keepsFirstBytes = KeptAnswer.keptBytes
            let response = try await transport.send(exchange)
            let profileTokenSent = tokenOrigin != nil && Origin(url)?.description == tokenOrigin && !request.has("Authorization")
            return RequestOutcome.classify(response, request: request, profileTokenSent: profileTokenSent, now: Date())
        } catch {
            return (DeliveryOutcome.classify(error), nil)
        }
    }

    /// One POST of one message.
    private func post(_ message: OutboxMessage) async -> DeliveryOutcome {
        let submission = MessageSubmission(to: message.to, subject: message.subject, text: message.text, responseToUid: message.responseToUid)
        do {
            let body = try JSONEncoder().encode(submission)
            // Its own URL, on the origin it was claimed for; never another server's.
            guard let destination = message.messagesURL.flatMap(URL.init(string:)).flatMap({ Origin($0)?.description == target.origin ? $0 : nil }) ?? url
            else { return .retry(code: "noServer", message: "no server is configured to deliver the message to", status: nil, retryAfter: nil) }
            let response = try await transport.send(HTTPExchangeRequest(
                method: .POST, url: destination,
                headers: [("Content-Type", "application/json"), ("Accept", "application/json"),
                          (ConnProtocol.idempotencyKeyHeader, message.idempotencyKey)],
                // The acceptance echoes the message, so it may be as large as the message.
                body: body, timeout: requestTimeout, maxResponseBytes: 2 * body.count + (64 << 10), redirects: RedirectPolicy.none))
            return DeliveryOutcome.classify(response, submission: submission, key: message.idempotencyKey, now: Date())
        } catch {
            return DeliveryOutcome.classify(error)
        }
    }

    /// One pass over what is due: claim a batch, deliver it, repeat until nothing is left to
    /// claim or an auth refusal pauses the queue.
    ///
    /// `concurrency` requests stay in flight the whole pass (`FlushPipeline` decides when): the
    /// next batch is claimed while the last `concurrency` of this one are still to start, and
    /// outcomes are recorded a batch at a time while the rest are running, so no commit waits for
    /// the pipe to empty. The commits run here, between answers: handing them to a thread of
    /// their own measured no faster (the pass is bound by the CPU, shared with the server on
    /// one machine) and cost more memory.
    /// `afterBatch` sees the tally after each batch is recorded (a progress line).
    public func flushOnce(_ scope: OutboxStore.ClaimScope, tally: inout FlushTally, afterBatch: ((FlushTally) -> Void)? = nil) async throws {
        let passStart = Date()
        var pipeline = FlushPipeline(concurrency: concurrency, batchSize: batchSize)
        await withTaskGroup(of: Attempted.self) { group in
            while true {
                if pipeline.wantsClaim {
                    pipeline.claiming = true
                    do {
                        let claim = try store.claim(scope, for: target, notAttemptedSince: passStart, limit: batchSize, owner: owner, lease: lease, now: Date())
                        tally.expired += claim.expired
                        if let pause = claim.pause { tally.pause = pause }
                        pipeline.claimed(claim.pause == nil ? claim.messages : [])
                    } catch {
                        pipeline.claimFailed(error)
                    }
                }
                while let message = pipeline.nextToStart() {
                    group.addTask { await attempt(message) }
                }
                if let batch = pipeline.batchToRecord() {
                    do {
                        try record(batch)
                        pipeline.recorded()
                        afterBatch?(tally)
                    } catch {
                        pipeline.recordFailed(error)
                    }
                }
                guard let attempted = await group.next() else { break }
                pipeline.finished(attempted)
                tally.count(attempted.outcome)
                // A refusal of the credentials: what is claimed is still tried (it is leased to
                // us), nothing more is claimed, and the queue pauses below.
                if tally.authRefused > 0 { pipeline.stopClaiming() }
            }
        }
        if let failure = pipeline.failure {
            // What was tried is written down if the database lets us; the rest waits for its lease.
            try? record(pipeline.unrecorded)
            throw failure
        }
        if tally.authRefused > 0, tally.pause == nil, let pause = try store.pause() {
            tally.pause = pause
        }
    }
}

/// What a flush did, for its report and exit code.
public struct FlushTally: Sendable, Equatable {
    public var attempted = 0
    public var sent = 0
    public var retrying = 0
    public var rejected = 0
    public var authRefused = 0
    public var expired = 0
    public var pause: AuthPause?
    /// The last retryable error, to say why messages are still waiting.
    public var lastRetryError: String?

    public init() {}

    mutating func count(_ outcome: DeliveryOutcome) {
        attempted += 1
        switch outcome {
        case .sent: sent += 1
        case .retry(_, let message, _, _):
            retrying += 1
            lastRetryError = message
        case .rejected: rejected += 1
        case .auth: authRefused += 1
        }
    }
}
