/// The bookkeeping of one flush pass (`OutboxDeliverer.flushOnce`): which claimed messages are
/// still to start, how many requests are in flight, which outcomes wait to be recorded, and
/// whether a claim or a record is under way. It decides; the pass runs the requests and commits.
///
/// One claim and one record at a time. A claim is asked for while the claimed messages not yet
/// started are no more than `concurrency`, so the next batch is there before they run out;
/// outcomes are recorded `batchSize` at a time, and whatever is left once the last request ends.
struct FlushPipeline {
    let concurrency: Int
    let batchSize: Int
    private var toStart: [OutboxMessage] = []
    private var nextToStartIndex = 0
    private(set) var inFlight = 0
    private var done: [OutboxDeliverer.Attempted] = []
    private var recording = 0
    var claiming = false
    /// Set when a claim comes back empty or paused, or the credentials were refused.
    private var claimsEnded = false
    private(set) var failure: (any Error)?

    init(concurrency: Int, batchSize: Int) {
        self.concurrency = concurrency
        self.batchSize = batchSize
    }

    private var waitingToStart: Int { toStart.count - nextToStartIndex }

    var wantsClaim: Bool { !claiming && !claimsEnded && failure == nil && waitingToStart <= concurrency }

    /// The next claimed message to start, while a request slot is free.
    mutating func nextToStart() -> OutboxMessage? {
        guard failure == nil, inFlight < concurrency, nextToStartIndex < toStart.count else { return nil }
        defer { nextToStartIndex += 1 }
        inFlight += 1
        return toStart[nextToStartIndex]
    }

    mutating func claimed(_ messages: [OutboxMessage]) {
        claiming = false
        if messages.isEmpty { claimsEnded = true }
        toStart.removeFirst(nextToStartIndex)
        nextToStartIndex = 0
        toStart += messages
    }

    mutating func stopClaiming() { claimsEnded = true }

    mutating func finished(_ attempted: OutboxDeliverer.Attempted) {
        inFlight -= 1
        done.append(attempted)
    }

    /// Outcomes to record now: a full batch, or the rest once nothing more will come.
    mutating func batchToRecord() -> [OutboxDeliverer.Attempted]? {
        guard recording == 0, failure == nil, !done.isEmpty else { return nil }
        let nothingMore = inFlight == 0 && !claiming && waitingToStart == 0 && claimsEnded
        guard done.count >= batchSize || nothingMore else { return nil }
        recording = done.count
        return done
    }

    mutating func recorded() {
        done.removeFirst(recording)
        recording = 0
    }

    /// A claim failed: nothing more starts; the requests in flight end.
    mutating func claimFailed(_ error: any Error) {
        if failure == nil { failure = error }
        claiming = false
    }

    /// A record failed: its batch stays unrecorded, nothing more starts, the requests in flight end.
    mutating func recordFailed(_ error: any Error) {
        if failure == nil { failure = error }
        recording = 0
    }

    /// Outcomes not recorded (after a failure).
    var unrecorded: [OutboxDeliverer.Attempted] { done }
}
