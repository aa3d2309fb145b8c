import ConnCore
import GRDB

/// The outbox's tables. A message row is written (and committed) before any delivery attempt;
/// `id` is also the Idempotency-Key of every attempt, so a retry can never store it twice.
public enum OutboxMigrations {
    public static let all: [DatabaseMigration] = [
        DatabaseMigration("outbox.v1.create") { db in
            try db.create(table: "outboxMessage") { table in
                table.primaryKey("id", .text)
                table.column("toAddress", .text).notNull()
                table.column("subject", .text).notNull()
                table.column("text", .text).notNull()
                table.column("responseToUid", .text)
                table.column("createdAt", .double).notNull()
                /// pending | sending | sent | failed
                table.column("state", .text).notNull().indexed()
                /// rejected | auth | expired, for a failed message.
                table.column("failureReason", .text)
                table.column("lastErrorCode", .text)
                table.column("lastError", .text)
                table.column("attempts", .integer).notNull().defaults(to: 0)
                /// conn's own backoff: automatic deliverers wait until then; a manual flush does not.
                table.column("nextAttemptAt", .double).notNull()
                /// The server's Retry-After: nobody sends before then.
                table.column("notBefore", .double)
                /// When the last attempt started: one flush pass tries each message at most once.
                table.column("lastAttemptAt", .double)
                table.column("leaseOwner", .text)
                table.column("leaseExpiresAt", .double)
                table.column("sentAt", .double)
                table.column("serverUid", .text)
                table.column("serverDateTime", .text)
            }
            // The audit log: one row per delivery attempt, written when it starts and completed
            // when it ends (a row left `started` is an attempt whose deliverer died).
            try db.create(table: "outboxAttempt") { table in
                table.autoIncrementedPrimaryKey("rowid")
                table.column("messageId", .text).notNull().indexed()
                    .references("outboxMessage", onDelete: .cascade)
                table.column("number", .integer).notNull()
                table.column("leaseOwner", .text).notNull()
                table.column("startedAt", .double).notNull()
                table.column("finishedAt", .double)
                /// started | sent | retry | rejected | auth
                table.column("outcome", .text).notNull()
                table.column("httpStatus", .integer)
                table.column("code", .text)
                table.column("detail", .text)
            }
        },
        // Errors stored before URLs with user:password@ were refused could name the server's URL
        // with its password.
        DatabaseMigration("outbox.v2.redactUserinfo") { db in
            try UserinfoRedaction.redact(db, table: "outboxMessage", column: "lastError", keyColumn: "id")
            try UserinfoRedaction.redact(db, table: "outboxAttempt", column: "detail", keyColumn: "rowid")
        },
        // Each message is for one server (`OutboxTarget`). Rows from before have none: they are
        // bound to the server of the first deliverer that claims them, as they were delivered then.
        DatabaseMigration("outbox.v3.target") { db in
            try db.alter(table: "outboxMessage") { table in
                /// `https://host:443`: the origin the message is delivered to, and only to.
                table.add(column: "origin", .text)
                table.add(column: "messagesURL", .text)
                /// The profile in effect when it was queued (for people reading the list).
                table.add(column: "profile", .text)
                /// The origin it was first queued for: its id is the Idempotency-Key there.
                table.add(column: "queuedOrigin", .text)
            }
            try db.create(index: "outboxMessage_origin", on: "outboxMessage", columns: ["origin", "state"])
        },
        // Any HTTP request (`conn request`) beside messages: the same row, queue, leases, attempts
        // and states; bound to its own URL's origin, delivered by whichever deliverer runs.
        DatabaseMigration("outbox.v4.requests") { db in
            try db.alter(table: "outboxMessage") { table in
                /// message | request
                table.add(column: "kind", .text).notNull().defaults(to: "message")
                table.add(column: "requestMethod", .text)
                table.add(column: "requestURL", .text)
                /// JSON: [{"name", "value", "secret"}], in the order given.
                table.add(column: "requestHeaders", .text)
                table.add(column: "requestBody", .blob)
                /// JSON: the statuses that prove delivery; NULL: any 2xx.
                table.add(column: "expectStatuses", .text)
                /// The header the idempotency key goes in; NULL: none.
                table.add(column: "keyHeader", .text)
                /// The server's answer to the last attempt that had one worth keeping.
                table.add(column: "answerStatus", .integer)
                table.add(column: "answerHeaders", .text)
                table.add(column: "answerBody", .blob)
                table.add(column: "answerBytes", .integer)
            }
        },
        // Read in order instead of sorted: at 100,000 queued, each claim of a flush's batch sorted
        // every pending row for the oldest 64 (a flush of 100,000 ran at 0.26x wrk, of 10,000 at
        // 0.48x), and `outbox list --limit` sorted the table for one page. The claim reads
        // (state, createdAt), which also serves every `state = ?` the state-only index did; the
        // list reads (createdAt, id). Each claim also prunes sent messages older than
        // outboxKeepSent: (state, sentAt) makes that a range instead of a walk over every sent row.
        DatabaseMigration("outbox.v5.order") { db in
            try db.create(index: "outboxMessage_listOrder", on: "outboxMessage", columns: ["createdAt", "id"])
            try db.create(index: "outboxMessage_stateOrder", on: "outboxMessage", columns: ["state", "createdAt"])
            try db.create(index: "outboxMessage_sentAt", on: "outboxMessage", columns: ["state", "sentAt"])
            try db.execute(sql: "DROP INDEX IF EXISTS outboxMessage_on_state")
        },
    ]
}
