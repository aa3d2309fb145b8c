#!/usr/bin/env python3
"""What SQLite alone costs to store an inbox the way `conn inbox fetch` does.

Takes the schema from a database conn has filled (so the tables, generated columns and indexes
are exactly conn's), creates it in a fresh file with the same settings (WAL, synchronous=FULL),
and writes one row per e-mail and one per conversation in one transaction from Python's
sqlite3 module (executemany: next to no per-row overhead). The thread columns are stand-ins;
only the volume and shape of the writes matter here.

    bench/tools/sqlite-floor.py CONN_DATABASE INBOX_JSON
"""
import json
import os
import sqlite3
import sys
import tempfile
import time

conn_database, inbox_json = sys.argv[1], sys.argv[2]
schema = [sql for (sql,) in sqlite3.connect(conn_database).execute(
    "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND tbl_name LIKE 'inbox%' ORDER BY type DESC")]
records = json.load(open(inbox_json, "rb"))["inbox"]
raws = [json.dumps(record, separators=(",", ":")) for record in records]

directory = tempfile.mkdtemp()
db = sqlite3.connect(os.path.join(directory, "floor.sqlite"), isolation_level=None)
db.execute("PRAGMA journal_mode=WAL")
db.execute("PRAGMA synchronous=FULL")
for sql in schema:
    db.execute(sql)

# One inbox copy per source (conn's inboxSource); every row carries its source's id, and the
# hash conn compares records by on a re-fetch.
source = 1
messages = [(source, r["uid"], r.get("responseToUid") or "", float(i), i, float(i), r.get("responseToUid") or r["uid"], 1, "", raw,
             hash(raw) & 0x7fffffffffffffff, 0.0)
            for i, (r, raw) in enumerate(zip(records, raws))]
roots = [r for r in records if not r.get("responseToUid")]
conversations = [(source, r["uid"], r.get("subject", ""), r.get("from", "") + ", " + r.get("to", ""), 1, float(i), r.get("dateTime", ""),
                  r.get("text", "")[:120], False) for i, r in enumerate(roots)]

start = time.perf_counter()
db.execute("BEGIN IMMEDIATE")
db.execute("INSERT INTO inboxSource(id, inboxKey, requested, source, etag, fetchedAt) VALUES (?, 'floor', 'floor', 'floor', NULL, 0)", (source,))
db.executemany("INSERT INTO inboxMessage(sourceId, uid, responseToUid, parsedTime, arrival, sortKey, threadRoot, depth, flags, raw, rawHash, fetchedAt) "
               "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", messages)
after_messages = time.perf_counter()
db.executemany("INSERT INTO inboxConversation(sourceId, rootUid, subject, participants, messageCount, lastSortKey, lastDateTime, snippet, missingParent) "
               "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", conversations)
after_conversations = time.perf_counter()
db.execute("COMMIT")
after_commit = time.perf_counter()
db.close()
end = time.perf_counter()
print(f"sqlite floor: {len(messages)} messages {after_messages - start:.3f} s, {len(conversations)} conversations "
      f"{after_conversations - after_messages:.3f} s, commit {after_commit - after_conversations:.3f} s, close {end - after_commit:.3f} s, "
      f"total {end - start:.3f} s")
