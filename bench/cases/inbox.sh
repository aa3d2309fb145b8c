#!/usr/bin/env bash
# conn inbox (issue 6):
#  1. fetch + store of 100,000 generated e-mails from conn-server vs `curl -o file` + `jq '.inbox | length'`
#     on the same data (goal ≤ 1.5x curl+jq); every conn run starts from an empty cache.
#     Then the floor: SQLite alone storing the same rows in conn's schema (bench/tools/sqlite-floor.py).
#  2. Re-fetches of the same 100,000 (issue 20), from a static server so the answer is the same
#     bytes: nothing changed (--force, no conditional request; goal ≤ 0.25x a full fetch) and 1 %
#     of the records changed (goal ≤ 0.35x), each from the cache the full fetch left; and the peak
#     RSS of the full fetch (goal ≤ 120 MB).
#  3. `conn inbox list --limit 50` with 1k, 10k and 100k cached e-mails vs `conn --version`
#     (goal ≤ 1.3x, and flat as the cache grows).
set -euo pipefail
source scripts/lib/server.sh
trap stop_conn_server EXIT
work=$(mktemp -d)
export HOME=$work XDG_DATA_HOME=$work/data XDG_CONFIG_HOME=$work/config

start_conn_server "$CONN_SERVER_BIN" --generate 100000
export CONN_SERVER=$CONN_SERVER_URL
curl -s -o /dev/null "$CONN_SERVER_URL/inbox"  # let the server encode its inbox once
hyperfine --warmup 1 --runs 5 --export-markdown "$RESULTS/inbox-fetch.md" \
    --prepare "rm -rf $work/data" \
    -n "curl -o file + jq '.inbox | length' (100,000 e-mails)" "curl -s -o $work/inbox.json $CONN_SERVER_URL/inbox && jq '.inbox | length' $work/inbox.json" \
    -n "conn inbox fetch (100,000 e-mails, empty cache)" "$CONN inbox fetch"
# The floor under the fetch: SQLite alone writing the same rows into conn's schema.
python3 bench/tools/sqlite-floor.py "$work/data/conn/conn.sqlite" "$work/inbox.json" | tee "$RESULTS/inbox-sqlite-floor.txt"
stop_conn_server

# 2. Re-fetches: one URL, whose file is swapped before each run.
mkdir -p "$work/static"
# Every 100th record's text gets "(edited) " in front; every other byte stays as the server wrote
# it (re-serialising the JSON would change every record's bytes, and so every record).
python3 bench/tools/edit-one-percent.py "$work/inbox.json" "$work/changed.json"
static_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server --bind 127.0.0.1 "$static_port" --directory "$work/static" >/dev/null 2>&1 &
static_pid=$!
trap 'stop_conn_server; kill $static_pid 2>/dev/null || true' EXIT
for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$static_port/" && break; sleep 0.1; done
export CONN_RESOURCES_INBOX="http://127.0.0.1:$static_port/inbox.json"
cp "$work/inbox.json" "$work/static/inbox.json"
rm -rf "$work/data"
echo "peak RSS: conn inbox fetch (100,000 e-mails, empty cache) $(peak_rss_mb "$CONN" inbox fetch -q) MB" | tee "$RESULTS/inbox-fetch-rss.txt"
cp -r "$work/data" "$work/full-cache"
hyperfine --warmup 1 --runs 5 --export-markdown "$RESULTS/inbox-refetch.md" \
    --prepare "rm -rf $work/data; cp $work/inbox.json $work/static/inbox.json" \
    -n "conn inbox fetch (100,000, empty cache)" "$CONN inbox fetch -q" \
    --prepare "rm -rf $work/data; cp -r $work/full-cache $work/data; cp $work/inbox.json $work/static/inbox.json" \
    -n "conn inbox fetch --force (nothing changed)" "$CONN inbox fetch --force -q" \
    --prepare "rm -rf $work/data; cp -r $work/full-cache $work/data; cp $work/changed.json $work/static/inbox.json" \
    -n "conn inbox fetch (1 % of the records changed)" "$CONN inbox fetch -q"
unset CONN_RESOURCES_INBOX
kill $static_pid; wait $static_pid 2>/dev/null || true

for size in 1000 10000 100000; do
    rm -rf "$work/data"
    start_conn_server "$CONN_SERVER_BIN" --generate "$size"
    # The copy listed is the configured server's: this server's, not the first one's.
    export CONN_SERVER=$CONN_SERVER_URL
    "$CONN" inbox fetch >/dev/null
    stop_conn_server
    hyperfine -N --warmup 10 --runs 100 --export-markdown "$RESULTS/inbox-list-$size.md" \
        -n "conn --version" "$CONN --version" \
        -n "conn inbox list --limit 50 ($size cached)" "$CONN inbox list --limit 50 -q"
done
echo "peak RSS: conn inbox list --limit 50 (100k cached) $(peak_rss_mb "$CONN" inbox list --limit 50 -q) MB" | tee "$RESULTS/inbox-rss.txt"
rm -rf "$work"
