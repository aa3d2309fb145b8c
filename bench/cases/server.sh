#!/usr/bin/env bash
# conn-server's throughput on loopback, measured with wrk (Debian's): POST /messages (each a new
# message with its own Idempotency-Key) and GET /inbox (1,000 and 100,000 generated e-mails).
# These are the ceilings for the client benchmarks of `conn outbox flush` and `conn inbox fetch`.
set -euo pipefail
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk; }
SERVER=$CONN_SERVER_BIN
DURATION=${DURATION:-10s}
out="$RESULTS/server.txt"
: > "$out"

source scripts/lib/server.sh
trap stop_conn_server EXIT
start_server() { start_conn_server "$SERVER" "$@"; URL=$CONN_SERVER_URL; }
stop_server() { stop_conn_server; }

run() {  # run LABEL WRK-ARGS…
    local label=$1; shift
    echo "## $label" | tee -a "$out"
    wrk "$@" | tee -a "$out"
    echo | tee -a "$out"
}

start_server --generate 1000
run "POST /messages, in-memory store, 2 threads, 16 connections, $DURATION" -t2 -c16 -d"$DURATION" -s bench/post-message.lua "$URL"
run "GET /inbox (1,000 e-mails + the posted ones), 2 threads, 16 connections, $DURATION" -t2 -c16 -d"$DURATION" "$URL/inbox"
run "GET /health, 2 threads, 16 connections, $DURATION" -t2 -c16 -d"$DURATION" "$URL/health"
stop_server

data=$(mktemp -d)
start_server --data "$data/server.sqlite"
run "POST /messages, SQLite file (--data, synchronous=FULL), 2 threads, 16 connections, $DURATION" -t2 -c16 -d"$DURATION" -s bench/post-message.lua "$URL"
stop_server
rm -rf "$data"

start_server --generate 100000
bytes=$(curl -s "$URL/inbox" | wc -c)
echo "inbox of 100,000 e-mails: $bytes bytes" | tee -a "$out"
run "GET /inbox (100,000 e-mails), 2 threads, 4 connections, $DURATION" -t2 -c4 -d"$DURATION" --timeout 30s "$URL/inbox"
stop_server
