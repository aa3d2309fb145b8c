#!/usr/bin/env bash
# conn inbox (issue 6):
#  1. fetch + store of 100,000 generated e-mails from conn-server vs `curl -o file` + `jq '.inbox | length'`
#     on the same data (goal ≤ 1.5x curl+jq); every conn run starts from an empty cache.
#     Then the floor: SQLite alone storing the same rows in conn's schema (bench/tools/sqlite-floor.py).
#  2. `conn inbox list --limit 50` with 1k, 10k and 100k cached e-mails vs `conn --version`
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

for size in 1000 10000 100000; do
    rm -rf "$work/data"
    start_conn_server "$CONN_SERVER_BIN" --generate "$size"
    CONN_SERVER=$CONN_SERVER_URL "$CONN" inbox fetch >/dev/null
    stop_conn_server
    hyperfine -N --warmup 10 --runs 100 --export-markdown "$RESULTS/inbox-list-$size.md" \
        -n "conn --version" "$CONN --version" \
        -n "conn inbox list --limit 50 ($size cached)" "$CONN inbox list --limit 50 -q"
done
echo "peak RSS: conn inbox list --limit 50 (100k cached) $(peak_rss_mb "$CONN" inbox list --limit 50 -q) MB" | tee "$RESULTS/inbox-rss.txt"
rm -rf "$work"
