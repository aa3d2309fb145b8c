#!/usr/bin/env python3
"""Queues COUNT pending messages straight into conn's outbox table (fresh UUIDs each time), so
the flush benchmark and the kill -9 soak start from a full queue in a fraction of a second
instead of COUNT `conn send` runs. The database must exist (run any `conn outbox` command first).

    bench/lib/fill-outbox.py DATABASE COUNT SUBJECT-PREFIX
"""
import sqlite3, sys, time, uuid

path, count, prefix = sys.argv[1], int(sys.argv[2]), sys.argv[3]
now = time.time()
db = sqlite3.connect(path)
db.execute("PRAGMA busy_timeout = 10000")
with db:
    db.execute("DELETE FROM outboxAttempt")
    db.execute("DELETE FROM outboxMessage")
    db.executemany(
        "INSERT INTO outboxMessage(id, toAddress, subject, text, responseToUid, createdAt, state, attempts, nextAttemptAt)"
        " VALUES (?, 'jhon@gmail.com', ?, 'Lorem Ipsum is simply dummy text of the printing and typesetting industry.', NULL, ?, 'pending', 0, ?)",
        ((str(uuid.uuid4()), f"{prefix}-{i}", now + i * 1e-6, now) for i in range(count)))
db.close()
