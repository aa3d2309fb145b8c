#!/usr/bin/env python3
"""Queues COUNT pending messages straight into conn's outbox table (fresh UUIDs each time), so
the flush benchmark and the kill -9 soak start from a full queue in a fraction of a second
instead of COUNT `conn send` runs. The database must exist (run any `conn outbox` command first).

    bench/lib/fill-outbox.py DATABASE COUNT SUBJECT-PREFIX [--requests URL] [--append]

With --requests, the rows are `conn request` POSTs to URL instead, each with the body of a
protocol message (so conn-server stores them) and an Idempotency-Key header. The outbox is
emptied first, unless --append (a queue of both kinds: two runs, the second with --append).
"""
import json, sqlite3, sys, time, uuid

path, count, prefix = sys.argv[1], int(sys.argv[2]), sys.argv[3]
options = sys.argv[4:]
append = "--append" in options
requests_url = options[options.index("--requests") + 1] if "--requests" in options else None
text = "Lorem Ipsum is simply dummy text of the printing and typesetting industry."
now = time.time()
db = sqlite3.connect(path)
db.execute("PRAGMA busy_timeout = 10000")
with db:
    if not append:
        db.execute("DELETE FROM outboxAttempt")
        db.execute("DELETE FROM outboxMessage")
    if requests_url:
        origin = requests_url.split("/", 3)
        origin = origin[0] + "//" + origin[2]
        headers = json.dumps([{"name": "Content-Type", "value": "application/json", "secret": False}])
        db.executemany(
            "INSERT INTO outboxMessage(id, toAddress, subject, text, createdAt, state, attempts, nextAttemptAt, origin, queuedOrigin, kind,"
            " requestMethod, requestURL, requestHeaders, requestBody, keyHeader)"
            " VALUES (?, '', '', '', ?, 'pending', 0, ?, ?, ?, 'request', 'POST', ?, ?, ?, 'Idempotency-Key')",
            ((str(uuid.uuid4()), now + i * 1e-6, now, origin, origin, requests_url, headers,
              json.dumps({"to": "jhon@gmail.com", "subject": f"{prefix}-{i}", "text": text}).encode())
             for i in range(count)))
    else:
        db.executemany(
            "INSERT INTO outboxMessage(id, toAddress, subject, text, responseToUid, createdAt, state, attempts, nextAttemptAt)"
            " VALUES (?, 'jhon@gmail.com', ?, ?, NULL, ?, 'pending', 0, ?)",
            ((str(uuid.uuid4()), f"{prefix}-{i}", text, now + i * 1e-6, now) for i in range(count)))
db.close()
