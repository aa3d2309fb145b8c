import ConnCore
@testable import ConnOutbox
import ConnTestSupport
import Foundation
import Testing

/// The flush pass's bookkeeping, driven step by step with real claimed messages: requests stay
/// `concurrency` in flight while a claim or a record is slow to come back (the commits that
/// used to empty the pipe), each message starts once, outcomes are recorded a batch at a time,
/// and after a failed record nothing more starts and the batch is still there to record.
@Suite("flush pipeline")
struct FlushPipelineTests {
    let home: TemporaryDirectory
    let store: OutboxStore
    static let target = OutboxTarget(messagesURL: URL(string: "http://127.0.0.1:8080/messages")!)

    init() throws {
        home = try TemporaryDirectory()
        let database = try LocalDatabase(path: home.path + "/conn.sqlite", migrations: OutboxMigrations.all)
        store = OutboxStore(database: database, expiry: .seconds(3600), token: nil)
    }

    /// A pass in which each request ends one step after it starts, and a claim or a record comes
    /// back `commitSteps` steps after it is asked for. Returns what the pass saw.
    struct Pass {
        var started: [String] = []
        var recordedBatches: [Int] = []
        /// In flight after each step's starts, while claims were still coming.
        var inFlightWhileClaiming: [Int] = []
        var pipeline: FlushPipeline
    }

    func run(messages: Int, concurrency: Int, commitSteps: Int, failRecord: Int? = nil) throws -> Pass {
        let now = Date()
        for index in 0..<messages {
            _ = try store.enqueue(OutboxDraft(to: "ada@example.com", subject: "s\(index)", text: "t", responseToUid: nil), now: now)
        }
        var pass = Pass(pipeline: FlushPipeline(concurrency: concurrency, batchSize: concurrency * 8))
        var claimDue: Int?, recordDue: (step: Int, batch: Int)?
        var running: [OutboxMessage] = []
        var records = 0
        for step in 0..<10_000 {
            if pass.pipeline.wantsClaim {
                pass.pipeline.claiming = true
                claimDue = step + commitSteps
            }
            while let message = pass.pipeline.nextToStart() {
                pass.started.append(message.id)
                running.append(message)
            }
            if claimDue != nil || !pass.started.isEmpty && pass.started.count < messages { pass.inFlightWhileClaiming.append(pass.pipeline.inFlight) }
            if let batch = pass.pipeline.batchToRecord() { recordDue = (step + commitSteps, batch.count) }
            if running.isEmpty && claimDue == nil && recordDue == nil { break }
            // This step's events: the oldest request ends, then a due claim or record comes back.
            if !running.isEmpty {
                let message = running.removeFirst()
                pass.pipeline.finished(OutboxDeliverer.Attempted(
                    message: message, outcome: .sent(uid: "1", dateTime: "", replayed: false, status: 201), answer: nil))
            }
            if let due = claimDue, due <= step {
                claimDue = nil
                let claim = try store.claim(.due(ignoringBackoff: true), for: Self.target, limit: pass.pipeline.batchSize, owner: .current,
                                            lease: .seconds(60), now: now)
                pass.pipeline.claimed(claim.messages)
            }
            if let due = recordDue, due.step <= step {
                recordDue = nil
                records += 1
                if records == failRecord {
                    pass.pipeline.recordFailed(CocoaError(.fileWriteUnknown))
                } else {
                    pass.recordedBatches.append(due.batch)
                    pass.pipeline.recorded()
                }
            }
        }
        return pass
    }

    @Test("with commits three steps long, 8 stay in flight from the first claim to the last; each message starts once; records of 64 and the rest")
    func keepsThePipeFull() throws {
        let pass = try run(messages: 300, concurrency: 8, commitSteps: 3)
        #expect(pass.started.count == 300)
        #expect(Set(pass.started).count == 300)
        #expect(pass.recordedBatches.reduce(0, +) == 300)
        #expect(pass.recordedBatches.dropLast().allSatisfy { $0 >= 64 }, "\(pass.recordedBatches)")
        // From the first start until the last claimed message starts, never fewer than 8.
        let steady = pass.inFlightWhileClaiming.drop { $0 < 8 }
        #expect(!steady.isEmpty)
        #expect(steady.allSatisfy { $0 == 8 }, "\(pass.inFlightWhileClaiming)")
        #expect(pass.pipeline.failure == nil && pass.pipeline.unrecorded.isEmpty)
    }

    @Test("a failed record: nothing more starts, the requests in flight end, and the batch is kept to record")
    func failedRecordStops() throws {
        let pass = try run(messages: 300, concurrency: 8, commitSteps: 3, failRecord: 1)
        #expect(pass.pipeline.failure != nil)
        #expect(pass.recordedBatches.isEmpty)
        #expect(pass.started.count < 300)
        #expect(pass.pipeline.unrecorded.count == pass.started.count, "every started request's outcome is kept to record")
        #expect(pass.pipeline.inFlight == 0)
    }
}
