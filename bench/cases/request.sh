#!/usr/bin/env bash
# conn request against conn-server on loopback (POST /messages: a live API that stores what it
# is sent, and answers 201 with a body):
#  1. start-up plus one request: `conn request` vs `curl -X POST` with the same body and headers.
#  2. flush of 10,000 queued requests vs wrk posting to the same server (its ceiling), same
#     concurrency (8 connections), as the message flush is measured (bench/cases/outbox.sh).
set -euo pipefail
out="$RESULTS/request.txt"
COUNT=${COUNT:-10000}
source bench/lib/outbox-home.sh
body='{"to":"jhon@gmail.com","subject":"benchmark","text":"Lorem-Ipsum-is-simply-dummy-text-of-the-printing-industry."}'  # hyperfine -N splits words as a shell does: quoted below, no blanks

# 1. one request, start-up included. Each conn run queues a fresh key (a new message); curl
# sends one fixed key, so the server replays after its first: cheaper for the server, not for conn.
start_conn_server "$CONN_SERVER_BIN"
hyperfine -N --warmup 5 --runs 100 --export-markdown "$RESULTS/request-one.md" \
    -n "curl -X POST" "curl -sf -o /dev/null -X POST -H Content-Type:application/json -H Idempotency-Key:4a0d2c7e-0000-4000-8000-000000000001 --data-raw '$body' $CONN_SERVER_URL/messages" \
    -n "conn request" "$CONN request $CONN_SERVER_URL/messages --body '$body' --expect 201" | tee -a "$out"
stop_conn_server

# 2. flush of COUNT queued requests vs wrk.
start_conn_server "$CONN_SERVER_BIN"
log "## wrk, POST /messages, 2 threads, 8 connections, 10s (the server's ceiling)"
wrk -t2 -c8 -d10s -s bench/post-message.lua "$CONN_SERVER_URL" | tee -a "$out"
wrk_rate=$(grep -o 'Requests/sec: *[0-9.]*' "$out" | tail -1 | awk '{print $2}')
stop_conn_server
best=""
for run in 1 2 3; do
    start_conn_server "$CONN_SERVER_BIN"
    python3 bench/lib/fill-outbox.py "$db" "$COUNT" "request$run" --requests "$CONN_SERVER_URL/messages"
    start=$(date +%s.%N)
    "$CONN" outbox flush --concurrency 8 >/dev/null
    end=$(date +%s.%N)
    stored=$(curl -s "$CONN_SERVER_URL/inbox" | jq '.inbox | length')
    seconds=$(echo "$end - $start" | bc -l)
    rate=$(echo "$COUNT / $seconds" | bc -l)
    log "flush run $run: $COUNT requests in $(printf %.2f "$seconds") s = $(printf %.0f "$rate") req/s (server stored $stored)"
    stop_conn_server
    if [ -z "$best" ] || [ "$(echo "$rate > $best" | bc -l)" = 1 ]; then best=$rate; fi
done
log "best flush: $(printf %.0f "$best") req/s; wrk: $wrk_rate req/s; flush/wrk = $(printf %.2f "$(echo "$best / $wrk_rate" | bc -l)")"
